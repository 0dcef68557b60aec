import { EMULATOR_STAFF } from '@broker/wecom-emulator';
import type { Database } from './client';
import { staff } from './schema';

/** In emulator mode every emulated WeCom user must map to a staff record, or sign-in fails. */
export async function ensureEmulatorStaff(db: Database, corpId: number) {
  await db
    .insert(staff)
    .values(
      EMULATOR_STAFF.map((member) => ({
        corpId,
        wecomUserId: member.userid,
        name: member.name,
        email: member.email,
        mobile: member.mobile,
        position: member.position,
      })),
    )
    .onConflictDoNothing({ target: [staff.corpId, staff.wecomUserId] });
}
