import { openDatabase, seedDemoData } from '../../index';
const db = await openDatabase({ pgliteDir: 'memory://' });
await db.query("insert into corp (code, name, wecom_corp_id) values ('fxhl','x','ww1') on conflict do nothing");
await seedDemoData(db, { customers: 500, seed: 3, asOf: '2026-11-20' });
console.log(await db.query("select status, count(*)::int, count(last_trade_date)::int as traded, max(last_trade_date)::text, min(last_trade_date)::text from customer group by status"));
console.log(await db.query("select direction, count(*)::int, max(occurred_at)::text, max(amount)::float8, percentile_cont(0.9) within group (order by amount)::float8 p90 from money_movement group by direction"));
console.log(await db.query("select count(*)::int from money_movement where occurred_at > '2026-11-13'"));
console.log(await db.query("select count(*)::int, max(traded_at)::text from trade"));
await db.close();
