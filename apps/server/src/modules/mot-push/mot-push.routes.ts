import { and, eq, inArray } from 'drizzle-orm';
import { contract, type MotPushSetting } from '@broker/contract';
import { implementArea } from '../../http/endpoint-route';
import { auditLog, motPushes, staff } from '../../db/schema';
import type { QuietHours } from './quiet-hours';

/**
 * The MOT settings sheet's WeCom-card switch (agent `mot`), and the language the cards are written in (the "me" sheet and
 * each sign-in send it). Opting out is audited like the other MOT settings; the language, like the display currency, is not.
 */
const optOutColumn = { optOut: staff.motPushOptOut };

export const motPushRoutes = implementArea(contract.motPush, (app, options: { quietHours: QuietHours | null }) => {
  const settingOf = (optOut: boolean): MotPushSetting => ({ push: !optOut, quietHours: options.quietHours });
  return {
    async getMotPushSetting({ caller }) {
      const [row] = await app.database.db.select(optOutColumn).from(staff).where(eq(staff.id, caller.staffId));
      return settingOf(row?.optOut ?? false);
    },
    async setMotPushSetting({ input, caller }) {
      return app.database.db.transaction(async (tx) => {
        const [before] = await tx.select(optOutColumn).from(staff).where(eq(staff.id, caller.staffId)).for('update');
        const optOut = input.push === undefined ? (before?.optOut ?? false) : !input.push;
        if (input.language !== undefined) {
          // The cards' language (ADR 0042): cards already written keep theirs; the next is written in this one.
          await tx.update(staff).set({ language: input.language, updatedAt: new Date() }).where(eq(staff.id, caller.staffId));
        }
        if (input.push === undefined) return settingOf(optOut);
        await tx.update(staff).set({ motPushOptOut: optOut, updatedAt: new Date() }).where(eq(staff.id, caller.staffId));
        if (optOut) {
          // Cards already waiting are not sent; their events stay in the app as they are.
          await tx
            .update(motPushes)
            .set({ status: 'skipped', lastError: 'opted out' })
            .where(and(eq(motPushes.staffId, caller.staffId), inArray(motPushes.status, ['pending', 'retry'])));
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
