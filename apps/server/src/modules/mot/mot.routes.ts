import { contract } from '@broker/contract';
import { implementArea } from '../../http/endpoint-route';
import { getTodoTaskDetail, handleEvent, markEventsSeen } from './mot-events';
import { getClientHistory, searchServiceHistory } from './mot-history';
import { createMotRankRepository } from './mot-rank';
import { getEventRank, getRankedToday, snoozeEvent } from './mot-rank.service';
import { getMinCashIO, setFold, setMinCashIO } from './mot-settings';
import { getTodoClients, getTodoDates, getTodoTaskCount } from './mot-todo';

/** Agent `mot`. The fold flag's reader, isFold, lives with the staff settings. */
export const motRoutes = implementArea(contract.mot, (app, options: { contactRecordLockHours: number }) => {
  const db = app.database.db;
  const ranks = createMotRankRepository(db);
  return {
    getTodoDates: ({ input, caller }) => getTodoDates(db, caller, input),
    getTodoClients: ({ input, caller }) => getTodoClients(db, caller, input),
    markEventsSeen: ({ input, caller }) => markEventsSeen(db, caller, input.eventIds),
    handleEvent: ({ input, caller }) => handleEvent(db, caller, input, options.contactRecordLockHours),
    getTodoTaskCount: ({ input, caller }) => getTodoTaskCount(db, caller, input.date),
    getTodoTaskDetail: ({ input, caller }) => getTodoTaskDetail(db, caller, input.eventId),
    getMinCashIO: ({ caller }) => getMinCashIO(db, caller),
    setMinCashIO: async ({ input, caller }) => {
      const saved = await setMinCashIO(app.database, caller, input.minCashIO);
      // A lower threshold can raise large-money events now (ADR 0042).
      await app.motPush.afterNewEvents({ reason: 'threshold', staffId: caller.staffId });
      return saved;
    },
    searchServiceHistory: ({ input, caller }) => searchServiceHistory(db, caller, input),
    getClientHistory: ({ input, caller }) => getClientHistory(db, caller, input),
    setFold: ({ input, caller }) => setFold(db, caller, input.isFold),
    getRankedToday: ({ input, caller }) => getRankedToday(ranks, caller, input),
    getEventRank: ({ input, caller }) => getEventRank(db, ranks, caller, input.eventId),
    snoozeEvent: ({ input, caller }) => snoozeEvent(db, caller, input),
  };
});
