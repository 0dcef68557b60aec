import { and, eq, inArray } from 'drizzle-orm';
import { contract, type MotPushSetting } from '@broker/contract';
import { scopeOf } from '../../http/caller';
import { implementArea } from '../../http/endpoint-route';
import { auditLog, motPushes, staff } from '../../db/schema';
import { auditEntry } from '../audit';
import type { QuietHours } from './quiet-hours';

/** The cards' switch (audited, as the MOT settings) and their language (not audited, as the display currency). */
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
          // Cards already written keep their language (ADR 0042).
          await tx.update(staff).set({ language: input.language, updatedAt: new Date() }).where(eq(staff.id, caller.staffId));
        }
        if (input.push === undefined) return settingOf(optOut);
        await tx.update(staff).set({ motPushOptOut: optOut, updatedAt: new Date() }).where(eq(staff.id, caller.staffId));
        if (optOut) {
          // Cards already waiting are not sent; their events stay in the app.
          await tx
            .update(motPushes)
            .set({ status: 'skipped', lastError: 'opted out' })
            .where(and(eq(motPushes.staffId, caller.staffId), inArray(motPushes.status, ['pending', 'retry'])));
        }
        const was = { motPush: before ? !before.optOut : null };
        await tx
          .insert(auditLog)
          .values(auditEntry(scopeOf(caller), 'mot.setPush', 'staff', String(caller.staffId), was, { motPush: input.push }));
        return settingOf(optOut);
      });
    },
  };
});
