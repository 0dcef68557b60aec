import { contract } from '@broker/contract';
import { implementArea } from '../../http/endpoint-route';
import { createMotRepository } from './mot.repository';
import { createMotService } from './mot.service';
import { createMotRankRepository } from './mot-rank';
import { createMotSnoozeRepository } from './mot-snooze';
import { createMotRankService } from './mot-rank.service';

/** MOT to-do list, handling and service history (agent `mot`). The fold flag's reader, isFold, lives with the staff settings. */
export const motRoutes = implementArea(contract.mot, (app, options: { contactRecordLockHours: number }) => {
  const repository = createMotRepository(app.database.db);
  const service = createMotService({ repository, database: app.database, contactRecordLockHours: options.contactRecordLockHours });
  const ranking = createMotRankService({
    events: repository,
    rank: createMotRankRepository(app.database.db),
    snooze: createMotSnoozeRepository(app.database.db),
  });
  return {
    getTodoDates: ({ input, caller }) => service.dates(caller, input),
    getTodoClients: ({ input, caller }) => service.todoClients(caller, input),
    markEventsSeen: ({ input, caller }) => service.seen(caller, input.eventIds),
    handleEvent: ({ input, caller }) => service.handle(caller, input),
    getTodoTaskCount: ({ input, caller }) => service.taskCount(caller, input.date),
    getTodoTaskDetail: ({ input, caller }) => service.detail(caller, input.eventId),
    getMinCashIO: ({ caller }) => service.minCashIo(caller),
    setMinCashIO: async ({ input, caller }) => {
      const saved = await service.setMinCashIo(caller, input.minCashIO);
      // A lower threshold can raise large-money events now: the real-time card (ADR 0042).
      await app.motPush.afterNewEvents({ reason: 'threshold', staffId: caller.staffId });
      return saved;
    },
    searchServiceHistory: ({ input, caller }) => service.history(caller, input),
    getClientHistory: ({ input, caller }) => service.clientHistory(caller, input),
    setFold: ({ input, caller }) => service.setFold(caller, input.isFold),
    getRankedToday: ({ input, caller }) => ranking.rankedToday(caller, input),
    getEventRank: ({ input, caller }) => ranking.eventRank(caller, input.eventId),
    snoozeEvent: ({ input, caller }) => ranking.snooze(caller, input),
  };
});
