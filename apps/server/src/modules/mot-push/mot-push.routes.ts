import { eq, sql } from 'drizzle-orm';
import { contract, type MotPushSetting } from '@broker/contract';
import { implementArea } from '../../http/endpoint-route';
import { auditLog, staff } from '../../db/schema';
import { rowsQuery, selectRows } from '../../db/sql-rows';
import type { QuietHours } from './quiet-hours';

/**
 * The MOT settings sheet's WeCom-card switch (agent `mot`), and the language the cards are written in (the "me" sheet and
 * each sign-in send it). Opting out is audited like the other MOT settings; the language, like the display currency, is not.
 */
export const motPushRoutes = implementArea(contract.motPush, (app, options: { quietHours: QuietHours | null }) => {
  const settingOf = (optOut: boolean): MotPushSetting => ({ push: !optOut, quietHours: options.quietHours });
  return {
    async getMotPushSetting({ caller }) {
      const [row] = await selectRows(
        app.database.db,
        rowsQuery<{ optOut: boolean }>(sql`select mot_push_opt_out as "optOut" from staff where id = ${caller.staffId}`),
      );
      return settingOf(row?.optOut ?? false);
    },
    async setMotPushSetting({ input, caller }) {
      return app.database.db.transaction(async (tx) => {
        const [before] = await selectRows(
          tx,
          rowsQuery<{ optOut: boolean }>(sql`select mot_push_opt_out as "optOut" from staff where id = ${caller.staffId} for update`),
        );
        const optOut = input.push === undefined ? (before?.optOut ?? false) : !input.push;
        if (input.language !== undefined) {
          // The cards' language (ADR 0042): cards already written keep theirs; the next is written in this one.
          await tx.update(staff).set({ language: input.language, updatedAt: new Date() }).where(eq(staff.id, caller.staffId));
        }
        if (input.push === undefined) return settingOf(optOut);
        await tx.execute(sql`update staff set mot_push_opt_out = ${optOut}, updated_at = now() where id = ${caller.staffId}`);
        if (optOut) {
          // Cards already waiting are not sent; their events stay in the app as they are.
          await tx.execute(
            sql`update mot_push set status = 'skipped', last_error = 'opted out' where staff_id = ${caller.staffId} and status in ('pending', 'retry')`,
          );
        }
        await tx.insert(auditLog).values({
          corpId: caller.corp.id,
          actorStaffId: caller.staffId,
          action: 'mot.setPush',
          entity: 'staff',
          entityId: String(caller.staffId),
          before: { motPush: before ? !before.optOut : null },
          after: { motPush: input.push },
        });
        return settingOf(optOut);
      });
    },
  };
});
