import { sql } from 'drizzle-orm';
import type { Database, DatabaseHandle } from '../../db/client';
import { auditLog, staff } from '../../db/schema';
import { columnName, float8, rowsQuery, selectRows } from '../../db/sql-rows';
import { scopeOf, type Caller, type StaffScope } from '../../http/caller';
import { auditEntry } from '../audit';
import { runMotRules } from './mot-engine';
import { CASH_THRESHOLD_RULES } from './mot-rules';
import { staffSettingsOf } from './mot.service';

/** In one transaction with its audit row. */
async function updateStaffSetting(db: Database, scope: StaffScope, key: 'minCashIo' | 'motFold', value: number | boolean) {
  const cash = key === 'minCashIo';
  await db.transaction(async (tx) => {
    const [before] = await selectRows(
      tx,
      rowsQuery<{ value: number | boolean }>(
        sql`select ${cash ? float8(staff.minCashIo) : staff.motFold} as value from ${staff} where ${staff.id} = ${scope.staffId} for update`,
      ),
    );
    await tx.execute(
      sql`update ${staff} set ${columnName(staff[key])} = ${value}, ${columnName(staff.updatedAt)} = now() where ${staff.id} = ${scope.staffId}`,
    );
    const field = cash ? 'minCashIO' : 'motFold';
    const action = cash ? 'mot.setMinCashIO' : 'mot.setFold';
    await tx
      .insert(auditLog)
      .values(auditEntry(scope, action, 'staff', String(scope.staffId), { [field]: before?.value ?? null }, { [field]: value }));
  });
}

export async function getMinCashIO(db: Database, caller: Caller) {
  return { minCashIO: (await staffSettingsOf(db, caller)).minCashIo };
}

/** The cash rules re-run over the caller's customers, so recent movements that now qualify fire. */
export async function setMinCashIO(database: DatabaseHandle, caller: Caller, minCashIO: number) {
  const rounded = Math.round(minCashIO * 100) / 100;
  await updateStaffSetting(database.db, scopeOf(caller), 'minCashIo', rounded);
  await runMotRules(database, { staffId: caller.staffId, rules: CASH_THRESHOLD_RULES });
  return { minCashIO: rounded };
}

export async function setFold(db: Database, caller: Caller, fold: boolean) {
  await updateStaffSetting(db, scopeOf(caller), 'motFold', fold);
  return fold;
}
