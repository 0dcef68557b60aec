import { sql } from 'drizzle-orm';
import type { Database, DatabaseHandle } from '../../db/client';
import { auditLog, staff } from '../../db/schema';
import { columnName, float8, rowsQuery, selectRows } from '../../db/sql-rows';
import { scopeOf, type Caller, type StaffScope } from '../../http/caller';
import { runMotRules } from './mot-engine';
import { CASH_THRESHOLD_RULES } from './mot-rules';
import { staffSettingsOf } from './mot.service';

/** In one transaction with its audit row. */
async function updateStaffSetting(db: Database, scope: StaffScope, setting: { minCashIo: number } | { motFold: boolean }) {
  await db.transaction(async (tx) => {
    const column = 'minCashIo' in setting ? staff.minCashIo : staff.motFold;
    const value = 'minCashIo' in setting ? setting.minCashIo : setting.motFold;
    const [before] = await selectRows(
      tx,
      rowsQuery<{ value: number | boolean }>(
        sql`select ${'minCashIo' in setting ? float8(staff.minCashIo) : staff.motFold} as value from ${staff} where ${staff.id} = ${scope.staffId} for update`,
      ),
    );
    await tx.execute(
      sql`update ${staff} set ${columnName(column)} = ${value}, ${columnName(staff.updatedAt)} = now() where ${staff.id} = ${scope.staffId}`,
    );
    const field = 'minCashIo' in setting ? 'minCashIO' : 'motFold';
    await tx.insert(auditLog).values({
      corpId: scope.corpId,
      actorStaffId: scope.staffId,
      action: 'minCashIo' in setting ? 'mot.setMinCashIO' : 'mot.setFold',
      entity: 'staff',
      entityId: String(scope.staffId),
      before: { [field]: before?.value ?? null },
      after: { [field]: value },
    });
  });
}

export async function getMinCashIO(db: Database, caller: Caller) {
  return { minCashIO: (await staffSettingsOf(db, caller)).minCashIo };
}

/** The cash rules re-run over the caller's customers, so recent movements that now qualify fire. */
export async function setMinCashIO(database: DatabaseHandle, caller: Caller, minCashIO: number) {
  const rounded = Math.round(minCashIO * 100) / 100;
  await updateStaffSetting(database.db, scopeOf(caller), { minCashIo: rounded });
  await runMotRules(database, { staffId: caller.staffId, rules: CASH_THRESHOLD_RULES });
  return { minCashIO: rounded };
}

export async function setFold(db: Database, caller: Caller, fold: boolean) {
  await updateStaffSetting(db, scopeOf(caller), { motFold: fold });
  return fold;
}
