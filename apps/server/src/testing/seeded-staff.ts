import type { DatabaseHandle } from '../db/client';

/** The seeded staff: each one's id by WeCom user id (chanwaiman, leekaying, …), and their corp (the seed has one). */
export async function seededStaff(database: DatabaseHandle): Promise<{ staffIds: Record<string, number>; corpId: number }> {
  const rows = await database.query<{ id: number; wecom_user_id: string; corp_id: number }>('select id, wecom_user_id, corp_id from staff');
  return { staffIds: Object.fromEntries(rows.map((row) => [row.wecom_user_id, row.id])), corpId: rows[0]!.corp_id };
}

/** The ids of a staff member's customers, in id order. */
export async function customerIdsOf(database: DatabaseHandle, staffId: number): Promise<number[]> {
  const rows = await database.query<{ id: number }>('select id::float8 as id from customer where staff_id = $1 order by id', [staffId]);
  return rows.map((row) => row.id);
}
