-- getClientHistory: POST /api/mot//todoEvent/clientHistory
-- prepared
select (select coalesce(json_agg(t), '[]'::json) from (select "c"."id"::float8 as "customerId",
"c"."customer_no" as "customerNo",
"c"."name_cn" as "nameCn",
"c"."name_en" as "nameEn",
"c"."phone" as "phone",
"c"."status" as "status",
"c"."risk_level" as "riskLevel",
"c"."open_date"::text as "openDate",
"c"."total_assets_hkd"::float8 as "totalAssetsHkd",
"c"."last_trade_date"::text as "lastTradeDate",
"c"."staff_id" as "staffId" from "customer" "c" where "c"."corp_id" = $1 and "c"."id" = $2) t) as "customer", (select coalesce(json_agg(t), '[]'::json) from (select "e"."id"::float8 as "eventId",
"e"."rule" as "rule",
"e"."status" as "status",
"e"."due_date"::text as "dueDate",
"e"."customer_id"::float8 as "customerId",
"e"."facts" as "facts",
floor(extract(epoch from "e"."created_at") * 1000)::float8 as "createdAt",
floor(extract(epoch from "e"."seen_at") * 1000)::float8 as "seenAt",
floor(extract(epoch from "e"."handled_at") * 1000)::float8 as "handledAt",
"e"."snoozed_at" is not null as "snoozed" from "mot_event" "e" where "e"."customer_id" = $3
order by "e"."due_date" desc, "e"."id" desc limit $4 offset $5) t) as "rows", (select coalesce(json_agg(t), '[]'::json) from (select count(*)::int as total from "mot_event" where "mot_event"."customer_id" = $6) t) as "total";

-- getEventRank: GET /api/mot/todoEvent/rank, statement 1 of 3
-- getTodoTaskDetail: GET /api/mot/todoEvent/todoTaskDetail, statement 1 of 3
-- handleEvent: POST /api/mot/todoEvent/handle, statement 1 of 9
-- snoozeEvent: POST /api/mot/todoEvent/snooze, statement 1 of 6
select "e"."id"::float8 as "eventId",
"e"."rule" as "rule",
"e"."status" as "status",
"e"."due_date"::text as "dueDate",
"e"."customer_id"::float8 as "customerId",
"e"."facts" as "facts",
floor(extract(epoch from "e"."created_at") * 1000)::float8 as "createdAt",
floor(extract(epoch from "e"."seen_at") * 1000)::float8 as "seenAt",
floor(extract(epoch from "e"."handled_at") * 1000)::float8 as "handledAt",
"e"."snoozed_at" is not null as "snoozed",
"c"."staff_id" as "staffId" from "mot_event" "e" join "customer" "c" on "c"."id" = "e"."customer_id" where "e"."corp_id" = $1 and "e"."id" = $2;

-- getEventRank: GET /api/mot/todoEvent/rank, statement 2 of 3
-- prepared
select (coalesce(($1::jsonb ->> "e"."rule")::float8, 1) * ($2::float8[])[greatest(width_bucket("c"."total_assets_hkd"::float8, $3::float8[]), 1)] * (1 + $4::float8 * least(greatest($5::date - "e"."due_date", 0), $6::int)) * (1 + $7::float8 * least(greatest(coalesce(($8::date - (lc.last_served at time zone 'Asia/Hong_Kong')::date), $9::int), 0), $10::int))) as score, coalesce(($11::jsonb ->> "e"."rule")::float8, 1) as type_weight, greatest(width_bucket("c"."total_assets_hkd"::float8, $12::float8[]), 1)::int as tier, ($13::float8[])[greatest(width_bucket("c"."total_assets_hkd"::float8, $14::float8[]), 1)] as tier_factor,
"c"."total_assets_hkd"::float8 as total_assets_hkd, greatest($15::date - "e"."due_date", 0)::int as overdue_days, (1 + $16::float8 * least(greatest($17::date - "e"."due_date", 0), $18::int)) as overdue_factor,
($19::date - (lc.last_served at time zone 'Asia/Hong_Kong')::date)::int as days_since_contact, (1 + $20::float8 * least(greatest(coalesce(($21::date - (lc.last_served at time zone 'Asia/Hong_Kong')::date), $22::int), 0), $23::int)) as contact_factor,
"e"."created_at" >= ($24::date::timestamp at time zone 'Asia/Hong_Kong') as raised_today from "mot_event" "e" join "customer" "c" on "c"."id" = "e"."customer_id"
cross join lateral (select max("r"."served_at") as last_served from "contact_record" "r"
where "r"."customer_id" = "e"."customer_id" and "r"."superseded_by" is null) lc
where "e"."corp_id" = $25 and "e"."id" = $26 and "e"."status" <> 'handled';

-- getEventRank: GET /api/mot/todoEvent/rank, statement 3 of 3
-- prepared
select "z"."id"::float8 as "snoozeId",
"st"."name" as "staffName",
floor(extract(epoch from "z"."snoozed_at") * 1000)::float8 as "snoozedAt",
"z"."from_date"::text as "fromDate",
"z"."to_date"::text as "toDate",
"z"."reason" as "reason",
"z"."note" as "note" from "mot_event_snooze" "z" join "staff" "st" on "st"."id" = "z"."staff_id" where "z"."event_id" = $1 order by "z"."id" desc;

-- getMinCashIO: POST /api/mot/todoEventRule/getMinCashIO
-- getTodoClients: GET /api/mot/todoEvent/todoClient, statement 1 of 2
-- prepared
select "staff"."min_cash_io"::float8 as "minCashIo",
"staff"."mot_fold" as "motFold" from "staff" where "staff"."id" = $1;

-- getRankedToday: GET /api/mot/todoEvent/ranked, statement 1 of 2
-- prepared
select coalesce((select "rv"."version" from "mot_rank_version" "rv" where "rv"."corp_id" = $1 and "rv"."staff_id" = $2), 0)::text as "rankVersion",
coalesce((select "bv"."version" from "staff_book_version" "bv" where "bv"."corp_id" = $3 and "bv"."staff_id" = $4), 0)::text as "bookVersion",
(select count(*)::int from "mot_event"
where "mot_event"."staff_id" = $5 and "mot_event"."corp_id" = $6
and "mot_event"."status" = 'handled' and "mot_event"."handled_at" >= ($7::date::timestamp at time zone 'Asia/Hong_Kong')) as handled;

-- getRankedToday: GET /api/mot/todoEvent/ranked, statement 2 of 2
-- prepared
select (select coalesce(json_agg(t), '[]'::json) from (select "c"."id"::float8 as "customerId", "c"."customer_no" as "customerNo", "c"."name_cn" as "nameCn", "c"."name_en" as "nameEn",
"c"."phone" as phone, "e"."id"::float8 as "eventId", "e"."rule" as rule, "e"."status" as status,
"e"."due_date"::text as "dueDate", "e"."facts" as facts, "e"."snoozed_at" is not null as snoozed, (coalesce(($1::jsonb ->> "e"."rule")::float8, 1) * ($2::float8[])[greatest(width_bucket("c"."total_assets_hkd"::float8, $3::float8[]), 1)] * (1 + $4::float8 * least(greatest($5::date - "e"."due_date", 0), $6::int)) * (1 + $7::float8 * least(greatest(coalesce(($8::date - (lc.last_served at time zone 'Asia/Hong_Kong')::date), $9::int), 0), $10::int))) as score, coalesce(($11::jsonb ->> "e"."rule")::float8, 1) as type_weight, greatest(width_bucket("c"."total_assets_hkd"::float8, $12::float8[]), 1)::int as tier, ($13::float8[])[greatest(width_bucket("c"."total_assets_hkd"::float8, $14::float8[]), 1)] as tier_factor,
"c"."total_assets_hkd"::float8 as total_assets_hkd, greatest($15::date - "e"."due_date", 0)::int as overdue_days, (1 + $16::float8 * least(greatest($17::date - "e"."due_date", 0), $18::int)) as overdue_factor,
($19::date - (lc.last_served at time zone 'Asia/Hong_Kong')::date)::int as days_since_contact, (1 + $20::float8 * least(greatest(coalesce(($21::date - (lc.last_served at time zone 'Asia/Hong_Kong')::date), $22::int), 0), $23::int)) as contact_factor,
"e"."created_at" >= ($24::date::timestamp at time zone 'Asia/Hong_Kong') as raised_today
from "mot_event" "e" join "staff" "s" on "s"."id" = $25
join "customer" "c" on "c"."id" = "e"."customer_id"
cross join lateral (select max("r"."served_at") as last_served from "contact_record" "r"
where "r"."customer_id" = "e"."customer_id" and "r"."superseded_by" is null) lc
where "e"."staff_id" = $26 and "e"."corp_id" = $27 and "e"."status" <> 'handled'
and not ("e"."rule" in ('large_deposit', 'large_withdrawal') and "e"."cash_io_hkd" < "s"."min_cash_io")
and ("e"."due_date" <= $28::date or ("e"."created_at" >= ($29::date::timestamp at time zone 'Asia/Hong_Kong') and "e"."snoozed_at" is null))
order by (coalesce(($30::jsonb ->> "e"."rule")::float8, 1) * ($31::float8[])[greatest(width_bucket("c"."total_assets_hkd"::float8, $32::float8[]), 1)] * (1 + $33::float8 * least(greatest($34::date - "e"."due_date", 0), $35::int)) * (1 + $36::float8 * least(greatest(coalesce(($37::date - (lc.last_served at time zone 'Asia/Hong_Kong')::date), $38::int), 0), $39::int))) desc, "e"."due_date", "e"."id") t) as "rows", (select coalesce(json_agg(t), '[]'::json) from (select coalesce((select "rv"."version" from "mot_rank_version" "rv" where "rv"."corp_id" = $40 and "rv"."staff_id" = $41), 0)::text as "rankVersion",
coalesce((select "bv"."version" from "staff_book_version" "bv" where "bv"."corp_id" = $42 and "bv"."staff_id" = $43), 0)::text as "bookVersion",
(select count(*)::int from "mot_event"
where "mot_event"."staff_id" = $44 and "mot_event"."corp_id" = $45
and "mot_event"."status" = 'handled' and "mot_event"."handled_at" >= ($46::date::timestamp at time zone 'Asia/Hong_Kong')) as handled) t) as "state";

-- getTodoClients: GET /api/mot/todoEvent/todoClient, statement 2 of 2
-- prepared
select (select coalesce(json_agg(t), '[]'::json) from (select "c"."id"::float8 as "customerId",
"c"."customer_no" as "customerNo",
"c"."name_cn" as "nameCn",
"c"."name_en" as "nameEn",
"c"."phone" as "phone", "e"."status" = 'new' as unseen, jsonb_build_array(jsonb_build_object('eventId', "e"."id", 'rule', "e"."rule", 'status', "e"."status", 'dueDate', "e"."due_date"::text, 'facts', "e"."facts", 'snoozed', "e"."snoozed_at" is not null)) as events
from (select "e"."id" from
"mot_event" "e"
join "staff" "s" on "s"."id" = $1
where "e"."staff_id" = $2 and "e"."corp_id" = $3 and "e"."status" <> 'handled'
and not ("e"."rule" in ('large_deposit', 'large_withdrawal') and "e"."cash_io_hkd" < "s"."min_cash_io") and "e"."due_date" = $4::date  order by "e"."customer_name_en", "e"."customer_id", "e"."id" limit $5 offset $6) p
join "mot_event" "e" on "e"."id" = p.id
join "customer" "c" on "c"."id" = "e"."customer_id"
order by "e"."customer_name_en", "e"."customer_id", "e"."id") t) as "rows", (select coalesce(json_agg(t), '[]'::json) from (select coalesce(sum(n.events), 0)::int as total from (
select "p"."due_date", "p"."rule", "p"."events", "p"."unseen" from "mot_pending_count" "p"
where "p"."staff_id" = $7 and "p"."corp_id" = $8 and "p"."due_date" = $9::date
union all
select "e"."due_date", "e"."rule", 1, ("e"."status" = 'new')::int from
"mot_event" "e"
join "staff" "s" on "s"."id" = $10
where "e"."staff_id" = $11 and "e"."corp_id" = $12
and "e"."status" <> 'handled' and "e"."rule" in ('large_deposit', 'large_withdrawal') and "e"."cash_io_hkd" >= "s"."min_cash_io"
and "e"."due_date" = $13::date ) n) t) as "total";

-- getTodoDates: GET /api/mot/todoEvent/todoClient/date
select n.due_date::text as date, sum(n.events)::int as count, sum(n.unseen)::int as unseen
from (
select "p"."due_date", "p"."rule", "p"."events", "p"."unseen" from "mot_pending_count" "p"
where "p"."staff_id" = $1 and "p"."corp_id" = $2 and "p"."due_date" between $3::date and $4::date
union all
select "e"."due_date", "e"."rule", 1, ("e"."status" = 'new')::int from
"mot_event" "e"
join "staff" "s" on "s"."id" = $5
where "e"."staff_id" = $6 and "e"."corp_id" = $7
and "e"."status" <> 'handled' and "e"."rule" in ('large_deposit', 'large_withdrawal') and "e"."cash_io_hkd" >= "s"."min_cash_io"
and "e"."due_date" between $8::date and $9::date ) n
group by n.due_date having sum(n.events) > 0 order by n.due_date;

-- getTodoTaskCount: GET /api/mot/todoEvent/todoTaskCount
select n.rule, sum(n.events)::int as count, sum(n.unseen)::int as unseen
from (
select "p"."due_date", "p"."rule", "p"."events", "p"."unseen" from "mot_pending_count" "p"
where "p"."staff_id" = $1 and "p"."corp_id" = $2 and true
union all
select "e"."due_date", "e"."rule", 1, ("e"."status" = 'new')::int from
"mot_event" "e"
join "staff" "s" on "s"."id" = $3
where "e"."staff_id" = $4 and "e"."corp_id" = $5
and "e"."status" <> 'handled' and "e"."rule" in ('large_deposit', 'large_withdrawal') and "e"."cash_io_hkd" >= "s"."min_cash_io"
and true ) n group by n.rule;

-- getTodoTaskDetail: GET /api/mot/todoEvent/todoTaskDetail, statement 2 of 3
select "c"."id"::float8 as "customerId",
"c"."customer_no" as "customerNo",
"c"."name_cn" as "nameCn",
"c"."name_en" as "nameEn",
"c"."phone" as "phone",
"c"."status" as "status",
"c"."risk_level" as "riskLevel",
"c"."open_date"::text as "openDate",
"c"."total_assets_hkd"::float8 as "totalAssetsHkd",
"c"."last_trade_date"::text as "lastTradeDate",
"c"."staff_id" as "staffId" from "customer" "c" where "c"."corp_id" = $1 and "c"."id" = $2;

-- getTodoTaskDetail: GET /api/mot/todoEvent/todoTaskDetail, statement 3 of 3
select "r"."id"::float8 as "recordId",
"r"."customer_id"::float8 as "customerId",
coalesce(nullif("c"."name_cn", ''), "c"."name_en") as "customerName",
"e"."id"::float8 as "eventId",
"e"."rule" as "rule",
"r"."channel" as "channel",
"r"."note" as "note",
"r"."outcome" as "outcome",
floor(extract(epoch from "r"."served_at") * 1000)::float8 as "servedAt" from "contact_record_event" "l" join "contact_record" "r" on "r"."thread_id" = "l"."record_id" and "r"."superseded_by" is null
join "customer" "c" on "c"."id" = "r"."customer_id"
join "mot_event" "e" on "e"."id" = "l"."mot_event_id" where "l"."mot_event_id" in ($1) order by "r"."thread_id";

-- handleEvent: POST /api/mot/todoEvent/handle, statement 2 of 9
-- prepared
select "c"."id"::float8 as "customerId",
"c"."customer_no" as "customerNo",
"c"."staff_id" as "staffId",
"c"."open_date"::text as "openDate" from "customer" "c" where "c"."corp_id" = $1 and "c"."id" = $2;

-- handleEvent: POST /api/mot/todoEvent/handle, statement 3 of 9
select "mot_event"."id"::float8 as id, "mot_event"."customer_id"::float8 as "customerId", "mot_event"."status" as status,
"mot_event"."rule" as rule, "mot_event"."fact_key" as "factKey"
from "mot_event" where "mot_event"."corp_id" = $1 and "mot_event"."id" in ($2)
order by "mot_event"."id" for update;

-- handleEvent: POST /api/mot/todoEvent/handle, statement 4 of 9
select nextval('contact_record_id_seq')::float8 as id;

-- handleEvent: POST /api/mot/todoEvent/handle, statement 5 of 9
insert into "contact_record" ("id", "thread_id", "version", "corp_id", "customer_id", "staff_id", "channel", "purpose", "note", "outcome", "next_step", "next_step_date", "suitability", "served_at", "follows_record_id", "correction_reason", "locks_at", "request_id")
values ($1, $2, $3, $4, $5, $6,
$7, $8, $9, $10, $11, $12::date,
$13, to_timestamp($14::float8 / 1000), $15, $16,
now() + $17::float8 * interval '1 second', $18::uuid)
on conflict (staff_id, request_id) where request_id is not null do nothing
returning id::float8 as id;

-- handleEvent: POST /api/mot/todoEvent/handle, statement 6 of 9
update "mot_event" set "status" = 'handled', "handled_at" = now(),
"seen_at" = coalesce("mot_event"."seen_at", now())
where "mot_event"."id" in ($1);

-- handleEvent: POST /api/mot/todoEvent/handle, statement 7 of 9
insert into "contact_record_event" ("record_id", "mot_event_id") values ($1, $2);

-- handleEvent: POST /api/mot/todoEvent/handle, statement 8 of 9
insert into "audit_log" ("id", "corp_id", "actor_staff_id", "action", "entity", "entity_id", "before", "after", "at") values (default, $1, $2, $3, $4, $5, $6, $7, default), (default, $8, $9, $10, $11, $12, $13, $14, default);

-- handleEvent: POST /api/mot/todoEvent/handle, statement 9 of 9
select "r"."id"::float8 as "recordId",
"r"."thread_id"::float8 as "threadId",
"r"."version" as "version",
"r"."superseded_by" is null as "latest",
"r"."customer_id"::float8 as "customerId",
coalesce(nullif("c"."name_cn", ''), "c"."name_en") as "customerName",
"c"."customer_no" as "customerNo",
"r"."staff_id" as "staffId",
"s"."name" as "staffName",
"r"."channel" as "channel",
"r"."purpose" as "purpose",
"r"."note" as "note",
"r"."outcome" as "outcome",
"r"."next_step" as "nextStep",
"r"."next_step_date"::text as "nextStepDate",
"r"."suitability" as "suitability",
(select coalesce(jsonb_agg(jsonb_build_object('eventId', "e"."id"::float8, 'rule', "e"."rule", 'dueDate', "e"."due_date"::text) order by "e"."id"), '[]'::jsonb)
from "contact_record_event" "l" join "mot_event" "e" on "e"."id" = "l"."mot_event_id" where "l"."record_id" = "r"."thread_id") as "events",
"r"."follows_record_id"::float8 as "followsRecordId",
(select "f"."id"::float8 from "mot_event" "f"
where "f"."rule" = 'follow_up' and "f"."customer_id" = "r"."customer_id" and "f"."fact_key" = "r"."thread_id"::text) as "followUpEventId",
floor(extract(epoch from "r"."served_at") * 1000)::float8 as "servedAt",
floor(extract(epoch from "r"."created_at") * 1000)::float8 as "createdAt",
floor(extract(epoch from "r"."locks_at") * 1000)::float8 as "locksAt",
("r"."locks_at" <= now() or "r"."superseded_by" is not null) as "locked",
"r"."correction_reason" as "correctionReason",
"r"."edits" as "edits",
floor(extract(epoch from "r"."superseded_at") * 1000)::float8 as "supersededAt" from "contact_record" "r" join "customer" "c" on "c"."id" = "r"."customer_id" join "staff" "s" on "s"."id" = "r"."staff_id" where "r"."id" = $1;

-- markEventsSeen: POST /api/mot/todoEvent/seen, statement 1 of 2
select "e"."id"::float8 as "eventId",
"c"."staff_id" as "staffId",
"e"."status" as "status" from "mot_event" "e" join "customer" "c" on "c"."id" = "e"."customer_id"
where "e"."corp_id" = $1 and "e"."id" in ($2);

-- markEventsSeen: POST /api/mot/todoEvent/seen, statement 2 of 2
update "mot_event" "e" set "status" = 'seen', "seen_at" = now()
from "customer" "c"
where "c"."id" = "e"."customer_id" and "c"."staff_id" = $1 and "e"."corp_id" = $2
and "e"."status" = 'new' and "e"."id" in ($3)
returning "e"."id"::float8 as id;

-- searchServiceHistory: POST /api/mot/todoEvent/history
-- prepared
select (select coalesce(json_agg(t), '[]'::json) from (select "r"."id"::float8 as "recordId",
"r"."customer_id"::float8 as "customerId",
coalesce(nullif("c"."name_cn", ''), "c"."name_en") as "customerName",
"e"."id"::float8 as "eventId",
"e"."rule" as "rule",
"r"."channel" as "channel",
"r"."note" as "note",
"r"."outcome" as "outcome",
floor(extract(epoch from "r"."served_at") * 1000)::float8 as "servedAt" from "contact_record" "r" join "customer" "c" on "c"."id" = "r"."customer_id"
left join lateral (select "l"."mot_event_id" from "contact_record_event" "l" where "l"."record_id" = "r"."thread_id" order by "l"."mot_event_id" limit 1) first_event on true
left join "mot_event" "e" on "e"."id" = first_event.mot_event_id where "r"."corp_id" = $1 and "c"."staff_id" = $2 and "r"."superseded_by" is null and ("r"."note" ilike $3 or "r"."outcome" ilike $4 or "r"."outcome" in ($5) or "c"."name_cn" ilike $6 or "c"."name_en" ilike $7) order by "r"."served_at" desc, "r"."id" desc limit $8 offset $9) t) as "rows", (select coalesce(json_agg(t), '[]'::json) from (select count(*)::int as total from "contact_record" "r" join "customer" "c" on "c"."id" = "r"."customer_id"
left join lateral (select "l"."mot_event_id" from "contact_record_event" "l" where "l"."record_id" = "r"."thread_id" order by "l"."mot_event_id" limit 1) first_event on true
left join "mot_event" "e" on "e"."id" = first_event.mot_event_id where "r"."corp_id" = $10 and "c"."staff_id" = $11 and "r"."superseded_by" is null and ("r"."note" ilike $12 or "r"."outcome" ilike $13 or "r"."outcome" in ($14) or "c"."name_cn" ilike $15 or "c"."name_en" ilike $16)) t) as "total";

-- setFold: POST /api/mot/todoEventRule/setFold, statement 1 of 3
select "staff"."mot_fold" as value from "staff" where "staff"."id" = $1 for update;

-- setFold: POST /api/mot/todoEventRule/setFold, statement 2 of 3
update "staff" set "mot_fold" = $1, "updated_at" = now() where "staff"."id" = $2;

-- setFold: POST /api/mot/todoEventRule/setFold, statement 3 of 3
-- setMinCashIO: POST /api/mot/todoEventRule/setMinCashIO, statement 3 of 9
-- snoozeEvent: POST /api/mot/todoEvent/snooze, statement 5 of 6
insert into "audit_log" ("id", "corp_id", "actor_staff_id", "action", "entity", "entity_id", "before", "after", "at") values (default, $1, $2, $3, $4, $5, $6, $7, default);

-- setMinCashIO: POST /api/mot/todoEventRule/setMinCashIO, statement 1 of 9
select "staff"."min_cash_io"::float8 as value from "staff" where "staff"."id" = $1 for update;

-- setMinCashIO: POST /api/mot/todoEventRule/setMinCashIO, statement 2 of 9
update "staff" set "min_cash_io" = $1, "updated_at" = now() where "staff"."id" = $2;

-- setMinCashIO: POST /api/mot/todoEventRule/setMinCashIO, statement 4 of 9
update "mot_event" "e"
set "staff_id" = case when "e"."status" <> 'handled' then "c"."staff_id" else "e"."staff_id" end, "customer_name_en" = "c"."name_en"
from "customer" "c"
where "c"."id" = "e"."customer_id" and "c"."staff_id" = $1::int
and (("e"."status" <> 'handled' and "e"."staff_id" <> "c"."staff_id") or "e"."customer_name_en" <> "c"."name_en");

-- setMinCashIO: POST /api/mot/todoEventRule/setMinCashIO, statement 5 of 9
with fired as (
insert into "mot_event" ("customer_name_en", "corp_id", "rule", "customer_id", "staff_id", "fact_key", "due_date", "facts")
select "c"."name_en", "c"."corp_id", 'large_deposit', "c"."id", "c"."staff_id", "m"."id"::text, ("m"."occurred_at" at time zone 'Asia/Hong_Kong')::date,
jsonb_build_object('movementId', "m"."id", 'amount', "m"."amount", 'currency', "m"."currency", 'rate', x.rate,
'amountHkd', round("m"."amount" / x.rate, 2), 'thresholdHkd', "s"."min_cash_io",
'method', "m"."method", 'occurredAt', to_char("m"."occurred_at" at time zone 'Asia/Hong_Kong', 'YYYY-MM-DD HH24:MI'))
from "money_movement" "m"
join "customer" "c" on "c"."id" = "m"."customer_id"
join "staff" "s" on "s"."id" = "c"."staff_id"
cross join lateral (select coalesce(
(select "er"."rate" from "exchange_rate" "er" where "er"."currency" = "m"."currency" and "er"."rate_date" <= ("m"."occurred_at" at time zone 'Asia/Hong_Kong')::date order by "er"."rate_date" desc limit 1),
(select "er"."rate" from "exchange_rate" "er" where "er"."currency" = "m"."currency" order by "er"."rate_date" desc limit 1),
case when "m"."currency" = 'HKD' then 1 end) as rate) x
where "m"."direction" = 'deposit'
and "m"."occurred_at" >= (($1::date - 7)::timestamp at time zone 'Asia/Hong_Kong')
and "m"."occurred_at" < (($2::date + 1)::timestamp at time zone 'Asia/Hong_Kong')
and "c"."status" <> 'closed' and "c"."staff_id" = $3::int
and "m"."amount" / x.rate >= "s"."min_cash_io"
on conflict ("rule", "customer_id", "fact_key") do nothing
returning 1
)
select count(*)::int as "inserted" from fired;

-- setMinCashIO: POST /api/mot/todoEventRule/setMinCashIO, statement 6 of 9
with fired as (
insert into "mot_event" ("customer_name_en", "corp_id", "rule", "customer_id", "staff_id", "fact_key", "due_date", "facts")
select "c"."name_en", "c"."corp_id", 'large_withdrawal', "c"."id", "c"."staff_id", "m"."id"::text, ("m"."occurred_at" at time zone 'Asia/Hong_Kong')::date,
jsonb_build_object('movementId', "m"."id", 'amount', "m"."amount", 'currency', "m"."currency", 'rate', x.rate,
'amountHkd', round("m"."amount" / x.rate, 2), 'thresholdHkd', "s"."min_cash_io",
'method', "m"."method", 'occurredAt', to_char("m"."occurred_at" at time zone 'Asia/Hong_Kong', 'YYYY-MM-DD HH24:MI'))
from "money_movement" "m"
join "customer" "c" on "c"."id" = "m"."customer_id"
join "staff" "s" on "s"."id" = "c"."staff_id"
cross join lateral (select coalesce(
(select "er"."rate" from "exchange_rate" "er" where "er"."currency" = "m"."currency" and "er"."rate_date" <= ("m"."occurred_at" at time zone 'Asia/Hong_Kong')::date order by "er"."rate_date" desc limit 1),
(select "er"."rate" from "exchange_rate" "er" where "er"."currency" = "m"."currency" order by "er"."rate_date" desc limit 1),
case when "m"."currency" = 'HKD' then 1 end) as rate) x
where "m"."direction" = 'withdrawal'
and "m"."occurred_at" >= (($1::date - 7)::timestamp at time zone 'Asia/Hong_Kong')
and "m"."occurred_at" < (($2::date + 1)::timestamp at time zone 'Asia/Hong_Kong')
and "c"."status" <> 'closed' and "c"."staff_id" = $3::int
and "m"."amount" / x.rate >= "s"."min_cash_io"
on conflict ("rule", "customer_id", "fact_key") do nothing
returning 1
)
select count(*)::int as "inserted" from fired;

-- setMinCashIO: POST /api/mot/todoEventRule/setMinCashIO, statement 7 of 9
with fired as (
insert into "mot_event" ("customer_name_en", "corp_id", "rule", "customer_id", "staff_id", "fact_key", "due_date", "facts")
select "c"."name_en", "c"."corp_id", 'particulars_changed_withdrawal', "c"."id", "c"."staff_id", "m"."id"::text, ("m"."occurred_at" at time zone 'Asia/Hong_Kong')::date,
jsonb_build_object('movementId', "m"."id", 'amount', "m"."amount", 'currency', "m"."currency", 'rate', x.rate,
'amountHkd', round("m"."amount" / x.rate, 2), 'thresholdHkd', "s"."min_cash_io",
'method', "m"."method", 'occurredAt', to_char("m"."occurred_at" at time zone 'Asia/Hong_Kong', 'YYYY-MM-DD HH24:MI'),
'changedFields', p.fields, 'changedAt', to_char(p.changed_at at time zone 'Asia/Hong_Kong', 'YYYY-MM-DD HH24:MI'),
'changedBy', p.changed_by, 'daysBetween', ("m"."occurred_at" at time zone 'Asia/Hong_Kong')::date - (p.changed_at at time zone 'Asia/Hong_Kong')::date,
'withinDays', 14)
from "money_movement" "m"
join "customer" "c" on "c"."id" = "m"."customer_id"
join "staff" "s" on "s"."id" = "c"."staff_id"
cross join lateral (select coalesce(
(select "er"."rate" from "exchange_rate" "er" where "er"."currency" = "m"."currency" and "er"."rate_date" <= ("m"."occurred_at" at time zone 'Asia/Hong_Kong')::date order by "er"."rate_date" desc limit 1),
(select "er"."rate" from "exchange_rate" "er" where "er"."currency" = "m"."currency" order by "er"."rate_date" desc limit 1),
case when "m"."currency" = 'HKD' then 1 end) as rate) x
cross join lateral (
-- The latest qualifying edit before the withdrawal, and every particular changed in the window.
select max("al"."at") as changed_at, string_agg(distinct k.field, ',' order by k.field) as fields,
(array_agg("actor"."name" order by "al"."at" desc))[1] as changed_by
from "audit_log" "al"
cross join lateral jsonb_object_keys(coalesce("al"."after", '{}'::jsonb)) k (field)
left join "staff" "actor" on "actor"."id" = "al"."actor_staff_id"
where "al"."entity" = 'customer' and "al"."entity_id" = "c"."id"::text
and "al"."at" >= ((("m"."occurred_at" at time zone 'Asia/Hong_Kong')::date - 14)::timestamp at time zone 'Asia/Hong_Kong')
and "al"."at" <= "m"."occurred_at"
and "al"."action" = 'customer.update'
and k.field in ('phone', 'email')
) p
where "m"."direction" = 'withdrawal'
and "m"."occurred_at" >= (($1::date - 7)::timestamp at time zone 'Asia/Hong_Kong')
and "m"."occurred_at" < (($2::date + 1)::timestamp at time zone 'Asia/Hong_Kong')
and "c"."status" <> 'closed' and "c"."staff_id" = $3::int
and "m"."amount" / x.rate >= "s"."min_cash_io"
and p.changed_at is not null
on conflict ("rule", "customer_id", "fact_key") do nothing
returning 1
)
select count(*)::int as "inserted" from fired;

-- setMinCashIO: POST /api/mot/todoEventRule/setMinCashIO, statement 8 of 9
with fired as (
insert into "mot_event" ("customer_name_en", "corp_id", "rule", "customer_id", "staff_id", "fact_key", "due_date", "facts")
select "c"."name_en", "c"."corp_id", 'vulnerable_client', "c"."id", "c"."staff_id", v.fact_key, v.due_date,
v.facts || jsonb_build_object('age', g.age, 'minAge', 65)
from "customer" "c"
join "staff" "s" on "s"."id" = "c"."staff_id"
cross join lateral (select extract(year from age($1::date::timestamp, "c"."birthday"::timestamp))::int as age) g
cross join lateral (
select 'withdrawal:' || "m"."id", ("m"."occurred_at" at time zone 'Asia/Hong_Kong')::date,
jsonb_build_object('trigger', 'withdrawal', 'movementId', "m"."id", 'amount', "m"."amount", 'currency', "m"."currency", 'rate', x.rate,
'amountHkd', round("m"."amount" / x.rate, 2), 'thresholdHkd', "s"."min_cash_io",
'method', "m"."method", 'occurredAt', to_char("m"."occurred_at" at time zone 'Asia/Hong_Kong', 'YYYY-MM-DD HH24:MI'))
from "money_movement" "m"
cross join lateral (select coalesce(
(select "er"."rate" from "exchange_rate" "er" where "er"."currency" = "m"."currency" and "er"."rate_date" <= ("m"."occurred_at" at time zone 'Asia/Hong_Kong')::date order by "er"."rate_date" desc limit 1),
(select "er"."rate" from "exchange_rate" "er" where "er"."currency" = "m"."currency" order by "er"."rate_date" desc limit 1),
case when "m"."currency" = 'HKD' then 1 end) as rate) x
where "m"."customer_id" = "c"."id" and "m"."direction" = 'withdrawal'
and "m"."occurred_at" >= (($2::date - 7)::timestamp at time zone 'Asia/Hong_Kong')
and "m"."occurred_at" < (($3::date + 1)::timestamp at time zone 'Asia/Hong_Kong')
and "m"."amount" / x.rate >= "s"."min_cash_io"
union all
select 'market:' || f.market, (f.traded_at at time zone 'Asia/Hong_Kong')::date,
jsonb_build_object('trigger', 'new_market', 'market', f.market, 'tradeId', f.id, 'symbol', f.symbol,
'securityNameCn', f.name_cn, 'securityNameHk', f.name_hk, 'securityNameEn', f.name_en, 'side', f.side, 'quantity', f.quantity,
'occurredAt', to_char(f.traded_at at time zone 'Asia/Hong_Kong', 'YYYY-MM-DD HH24:MI'),
'previousMarkets', coalesce((select string_agg(distinct "sp"."market", ',' order by "sp"."market")
from "trade" "tp" join "security" "sp" on "sp"."id" = "tp"."security_id"
where "tp"."customer_id" = "c"."id" and "tp"."traded_at" < f.traded_at), ''))
from (
-- The client's first trade of the look-back in each market.
select distinct on ("sec"."market") "tr"."id", "tr"."traded_at", "tr"."side", "tr"."quantity", "sec"."market", "sec"."symbol", "sec"."name_cn", "sec"."name_hk", "sec"."name_en"
from "trade" "tr" join "security" "sec" on "sec"."id" = "tr"."security_id"
where "tr"."customer_id" = "c"."id"
and "tr"."traded_at" >= (($4::date - 7)::timestamp at time zone 'Asia/Hong_Kong')
and "tr"."traded_at" < (($5::date + 1)::timestamp at time zone 'Asia/Hong_Kong')
order by "sec"."market", "tr"."traded_at", "tr"."id"
) f
where not exists (select 1 from "trade" "tp" join "security" "sp" on "sp"."id" = "tp"."security_id"
where "tp"."customer_id" = "c"."id" and "tp"."traded_at" < f.traded_at and "sp"."market" = f.market)
) v (fact_key, due_date, facts)
where "c"."status" <> 'closed' and "c"."staff_id" = $6::int
and "c"."birthday" <= ($7::date - make_interval(years => 65))::date
on conflict ("rule", "customer_id", "fact_key") do nothing
returning 1
)
select count(*)::int as "inserted" from fired;

-- setMinCashIO: POST /api/mot/todoEventRule/setMinCashIO, statement 9 of 9
with candidates as (
select "e"."id", "e"."staff_id", "e"."corp_id",
("e"."status" = 'new' and not "s"."mot_push_opt_out" and "s"."active"
and "e"."rule" <> all(ARRAY['follow_up']::text[])) as announce
from "mot_event" "e"
join "staff" "s" on "s"."id" = "e"."staff_id"
where "e"."created_at" > now() - interval '2 days' and "e"."staff_id" = $1
and not exists (select 1 from "mot_push_event" "pe" where "pe"."event_id" = "e"."id")
and ("e"."cash_io_hkd" is null or "e"."cash_io_hkd" >= "s"."min_cash_io")
),
managers as (
select staff_id, min(corp_id) as corp_id from candidates where announce group by staff_id
),
cards as (
insert into "mot_push" ("corp_id", "staff_id", "reason", "not_before")
select corp_id, staff_id, $2, $3::timestamptz from managers
on conflict ("staff_id") where "status" = 'pending'
do update set "not_before" = "mot_push"."not_before"
returning "mot_push"."id", "mot_push"."staff_id"
),
announced as (
insert into "mot_push_event" ("event_id", "push_id")
select u.id, coalesce(c.id, 0)
from candidates u
left join cards c on c.staff_id = u.staff_id and u.announce
on conflict ("event_id") do nothing
returning "mot_push_event"."push_id"
)
select (select count(*) from cards)::int as "cards",
(select count(*) from announced where push_id > 0)::int as "events";

-- snoozeEvent: POST /api/mot/todoEvent/snooze, statement 2 of 6
select "e"."status" as status, "e"."due_date"::text as "dueDate" from "mot_event" "e" where "e"."id" = $1 for update;

-- snoozeEvent: POST /api/mot/todoEvent/snooze, statement 3 of 6
update "mot_event" set "due_date" = $1::date, "snoozed_at" = now()
where "mot_event"."id" = $2;

-- snoozeEvent: POST /api/mot/todoEvent/snooze, statement 4 of 6
insert into "mot_event_snooze" ("id", "corp_id", "event_id", "staff_id", "from_date", "to_date", "reason", "note", "snoozed_at") values (default, $1, $2, $3, $4, $5, $6, $7, default) returning "id";

-- snoozeEvent: POST /api/mot/todoEvent/snooze, statement 6 of 6
select "z"."id"::float8 as "snoozeId",
"st"."name" as "staffName",
floor(extract(epoch from "z"."snoozed_at") * 1000)::float8 as "snoozedAt",
"z"."from_date"::text as "fromDate",
"z"."to_date"::text as "toDate",
"z"."reason" as "reason",
"z"."note" as "note" from "mot_event_snooze" "z" join "staff" "st" on "st"."id" = "z"."staff_id" where "z"."id" = $1;

-- MOT rules (the daily sweep, mot-engine.ts), statement 1 of 16
update "mot_event" "e"
set "staff_id" = case when "e"."status" <> 'handled' then "c"."staff_id" else "e"."staff_id" end, "customer_name_en" = "c"."name_en"
from "customer" "c"
where "c"."id" = "e"."customer_id" and true
and (("e"."status" <> 'handled' and "e"."staff_id" <> "c"."staff_id") or "e"."customer_name_en" <> "c"."name_en");

-- MOT rules (the daily sweep, mot-engine.ts), statement 2 of 16
with fired as (
insert into "mot_event" ("customer_name_en", "corp_id", "rule", "customer_id", "staff_id", "fact_key", "due_date", "facts")
select "c"."name_en", "c"."corp_id", 'birthday', "c"."id", "c"."staff_id", extract(year from y.next_date)::int::text, y.next_date,
jsonb_build_object('birthday', "c"."birthday", 'date', y.next_date, 'years', y.years, 'lookaheadDays', 7)
from "customer" "c"
cross join lateral (select n.next_date, (extract(year from n.next_date) - extract(year from "c"."birthday"))::int as years
from (select case when ("c"."birthday" + make_interval(years => (extract(year from $1::date) - extract(year from "c"."birthday"))::int))::date >= $2::date then ("c"."birthday" + make_interval(years => (extract(year from $3::date) - extract(year from "c"."birthday"))::int))::date else ("c"."birthday" + make_interval(years => (extract(year from $4::date) - extract(year from "c"."birthday"))::int + 1))::date end as next_date) n) y
where "c"."status" <> 'closed' and true and "c"."birthday" is not null
and y.next_date <= $5::date + 7 and y.years >= 0
on conflict ("rule", "customer_id", "fact_key") do nothing
returning 1
)
select count(*)::int as "inserted" from fired;

-- MOT rules (the daily sweep, mot-engine.ts), statement 3 of 16
with fired as (
insert into "mot_event" ("customer_name_en", "corp_id", "rule", "customer_id", "staff_id", "fact_key", "due_date", "facts")
select "c"."name_en", "c"."corp_id", 'large_deposit', "c"."id", "c"."staff_id", "m"."id"::text, ("m"."occurred_at" at time zone 'Asia/Hong_Kong')::date,
jsonb_build_object('movementId', "m"."id", 'amount', "m"."amount", 'currency', "m"."currency", 'rate', x.rate,
'amountHkd', round("m"."amount" / x.rate, 2), 'thresholdHkd', "s"."min_cash_io",
'method', "m"."method", 'occurredAt', to_char("m"."occurred_at" at time zone 'Asia/Hong_Kong', 'YYYY-MM-DD HH24:MI'))
from "money_movement" "m"
join "customer" "c" on "c"."id" = "m"."customer_id"
join "staff" "s" on "s"."id" = "c"."staff_id"
cross join lateral (select coalesce(
(select "er"."rate" from "exchange_rate" "er" where "er"."currency" = "m"."currency" and "er"."rate_date" <= ("m"."occurred_at" at time zone 'Asia/Hong_Kong')::date order by "er"."rate_date" desc limit 1),
(select "er"."rate" from "exchange_rate" "er" where "er"."currency" = "m"."currency" order by "er"."rate_date" desc limit 1),
case when "m"."currency" = 'HKD' then 1 end) as rate) x
where "m"."direction" = 'deposit'
and "m"."occurred_at" >= (($1::date - 7)::timestamp at time zone 'Asia/Hong_Kong')
and "m"."occurred_at" < (($2::date + 1)::timestamp at time zone 'Asia/Hong_Kong')
and "c"."status" <> 'closed' and true
and "m"."amount" / x.rate >= "s"."min_cash_io"
on conflict ("rule", "customer_id", "fact_key") do nothing
returning 1
)
select count(*)::int as "inserted" from fired;

-- MOT rules (the daily sweep, mot-engine.ts), statement 4 of 16
with fired as (
insert into "mot_event" ("customer_name_en", "corp_id", "rule", "customer_id", "staff_id", "fact_key", "due_date", "facts")
select "c"."name_en", "c"."corp_id", 'large_withdrawal', "c"."id", "c"."staff_id", "m"."id"::text, ("m"."occurred_at" at time zone 'Asia/Hong_Kong')::date,
jsonb_build_object('movementId', "m"."id", 'amount', "m"."amount", 'currency', "m"."currency", 'rate', x.rate,
'amountHkd', round("m"."amount" / x.rate, 2), 'thresholdHkd', "s"."min_cash_io",
'method', "m"."method", 'occurredAt', to_char("m"."occurred_at" at time zone 'Asia/Hong_Kong', 'YYYY-MM-DD HH24:MI'))
from "money_movement" "m"
join "customer" "c" on "c"."id" = "m"."customer_id"
join "staff" "s" on "s"."id" = "c"."staff_id"
cross join lateral (select coalesce(
(select "er"."rate" from "exchange_rate" "er" where "er"."currency" = "m"."currency" and "er"."rate_date" <= ("m"."occurred_at" at time zone 'Asia/Hong_Kong')::date order by "er"."rate_date" desc limit 1),
(select "er"."rate" from "exchange_rate" "er" where "er"."currency" = "m"."currency" order by "er"."rate_date" desc limit 1),
case when "m"."currency" = 'HKD' then 1 end) as rate) x
where "m"."direction" = 'withdrawal'
and "m"."occurred_at" >= (($1::date - 7)::timestamp at time zone 'Asia/Hong_Kong')
and "m"."occurred_at" < (($2::date + 1)::timestamp at time zone 'Asia/Hong_Kong')
and "c"."status" <> 'closed' and true
and "m"."amount" / x.rate >= "s"."min_cash_io"
on conflict ("rule", "customer_id", "fact_key") do nothing
returning 1
)
select count(*)::int as "inserted" from fired;

-- MOT rules (the daily sweep, mot-engine.ts), statement 5 of 16
with fired as (
insert into "mot_event" ("customer_name_en", "corp_id", "rule", "customer_id", "staff_id", "fact_key", "due_date", "facts")
select "c"."name_en", "c"."corp_id", 'transfer_in', "c"."id", "c"."staff_id", "t"."id"::text, ("t"."occurred_at" at time zone 'Asia/Hong_Kong')::date,
jsonb_build_object('transferId', "t"."id", 'symbol', "sec"."symbol", 'securityNameCn', "sec"."name_cn", 'securityNameHk', "sec"."name_hk", 'securityNameEn', "sec"."name_en",
'quantity', "t"."quantity", 'counterparty', "t"."counterparty", 'currency', "sec"."currency", 'lastPrice', "sec"."last_price",
'valueHkd', round("t"."quantity" * "sec"."last_price" / x.rate, 2), 'occurredAt', to_char("t"."occurred_at" at time zone 'Asia/Hong_Kong', 'YYYY-MM-DD HH24:MI'))
from "stock_transfer" "t"
join "customer" "c" on "c"."id" = "t"."customer_id"
join "security" "sec" on "sec"."id" = "t"."security_id"
cross join lateral (select coalesce(
(select "er"."rate" from "exchange_rate" "er" where "er"."currency" = "sec"."currency" and "er"."rate_date" <= $1::date order by "er"."rate_date" desc limit 1),
(select "er"."rate" from "exchange_rate" "er" where "er"."currency" = "sec"."currency" order by "er"."rate_date" desc limit 1),
case when "sec"."currency" = 'HKD' then 1 end) as rate) x
where "t"."direction" = 'in'
and "t"."occurred_at" >= (($2::date - 7)::timestamp at time zone 'Asia/Hong_Kong')
and "t"."occurred_at" < (($3::date + 1)::timestamp at time zone 'Asia/Hong_Kong')
and "c"."status" <> 'closed' and true
on conflict ("rule", "customer_id", "fact_key") do nothing
returning 1
)
select count(*)::int as "inserted" from fired;

-- MOT rules (the daily sweep, mot-engine.ts), statement 6 of 16
with fired as (
insert into "mot_event" ("customer_name_en", "corp_id", "rule", "customer_id", "staff_id", "fact_key", "due_date", "facts")
select "c"."name_en", "c"."corp_id", 'transfer_out', "c"."id", "c"."staff_id", "t"."id"::text, ("t"."occurred_at" at time zone 'Asia/Hong_Kong')::date,
jsonb_build_object('transferId', "t"."id", 'symbol', "sec"."symbol", 'securityNameCn', "sec"."name_cn", 'securityNameHk', "sec"."name_hk", 'securityNameEn', "sec"."name_en",
'quantity', "t"."quantity", 'counterparty', "t"."counterparty", 'currency', "sec"."currency", 'lastPrice', "sec"."last_price",
'valueHkd', round("t"."quantity" * "sec"."last_price" / x.rate, 2), 'occurredAt', to_char("t"."occurred_at" at time zone 'Asia/Hong_Kong', 'YYYY-MM-DD HH24:MI'))
from "stock_transfer" "t"
join "customer" "c" on "c"."id" = "t"."customer_id"
join "security" "sec" on "sec"."id" = "t"."security_id"
cross join lateral (select coalesce(
(select "er"."rate" from "exchange_rate" "er" where "er"."currency" = "sec"."currency" and "er"."rate_date" <= $1::date order by "er"."rate_date" desc limit 1),
(select "er"."rate" from "exchange_rate" "er" where "er"."currency" = "sec"."currency" order by "er"."rate_date" desc limit 1),
case when "sec"."currency" = 'HKD' then 1 end) as rate) x
where "t"."direction" = 'out'
and "t"."occurred_at" >= (($2::date - 7)::timestamp at time zone 'Asia/Hong_Kong')
and "t"."occurred_at" < (($3::date + 1)::timestamp at time zone 'Asia/Hong_Kong')
and "c"."status" <> 'closed' and true
on conflict ("rule", "customer_id", "fact_key") do nothing
returning 1
)
select count(*)::int as "inserted" from fired;

-- MOT rules (the daily sweep, mot-engine.ts), statement 7 of 16
with fired as (
insert into "mot_event" ("customer_name_en", "corp_id", "rule", "customer_id", "staff_id", "fact_key", "due_date", "facts")
select "c"."name_en", "c"."corp_id", 'dormant', "c"."id", "c"."staff_id", coalesce("c"."last_trade_date"::text, 'never'), $1::date,
jsonb_build_object('lastTradeDate', "c"."last_trade_date", 'openDate', "c"."open_date",
'daysWithoutTrade', $2::date - coalesce("c"."last_trade_date", "c"."open_date"), 'dormantDays', 180)
from "customer" "c"
where "c"."status" <> 'closed' and true
and coalesce("c"."last_trade_date", "c"."open_date") between $3::date - 210 and $4::date - 180
on conflict ("rule", "customer_id", "fact_key") do nothing
returning 1
)
select count(*)::int as "inserted" from fired;

-- MOT rules (the daily sweep, mot-engine.ts), statement 8 of 16
with fired as (
insert into "mot_event" ("customer_name_en", "corp_id", "rule", "customer_id", "staff_id", "fact_key", "due_date", "facts")
select "c"."name_en", "c"."corp_id", 'position_loss', "c"."id", "c"."staff_id", p.symbol || '@' || to_char($1::date, 'YYYY-MM'), $2::date,
jsonb_build_object('symbol', p.symbol, 'securityNameCn', p.name_cn, 'securityNameHk', p.name_hk, 'securityNameEn', p.name_en, 'currency', p.currency,
'quantity', p.quantity, 'avgCost', round(p.avg_cost, 4), 'lastPrice', p.last_price, 'priceDate', p.price_date,
'lossPct', round(p.loss_pct, 2), 'lossHkd', round(p.loss_hkd, 2),
'minLossPct', 20, 'minLossHkd', 50000)
from (
select q.*, (q.avg_cost - q.last_price) / q.avg_cost * 100 as loss_pct,
(q.avg_cost - q.last_price) * q.quantity / r.rate as loss_hkd
from (
select "h"."customer_id", "sec"."symbol", "sec"."name_cn", "sec"."name_hk", "sec"."name_en", "sec"."currency", "sec"."last_price", "sec"."price_date",
sum("h"."quantity") as quantity, sum("h"."quantity" * "h"."avg_cost") / sum("h"."quantity") as avg_cost
-- Candidates first: a position's average cost is at most its dearest holding's, so
-- only positions with a holding that far under water can qualify.
from (select distinct "hc"."customer_id", "hc"."security_id"
from "holding" "hc" join "security" "sc" on "sc"."id" = "hc"."security_id"
where "hc"."quantity" > 0 and "sc"."last_price" <= "hc"."avg_cost" * 0.8) k
join "holding" "h" on "h"."customer_id" = k.customer_id and "h"."security_id" = k.security_id
join "security" "sec" on "sec"."id" = "h"."security_id"
join "customer" "c" on "c"."id" = "h"."customer_id"
where "h"."quantity" > 0 and "c"."status" <> 'closed' and true
group by "h"."customer_id", "sec"."id"
) q
-- One rate per currency, not one lookup per position.
-- (offset 0 keeps the planner from pulling the lookup up into every row.)
join (select cur.currency, coalesce(
(select "er"."rate" from "exchange_rate" "er" where "er"."currency" = cur.currency and "er"."rate_date" <= $3::date order by "er"."rate_date" desc limit 1),
(select "er"."rate" from "exchange_rate" "er" where "er"."currency" = cur.currency order by "er"."rate_date" desc limit 1),
case when cur.currency = 'HKD' then 1 end) as rate from (select distinct "security"."currency" from "security") cur offset 0) r on r.currency = q.currency
where q.avg_cost > 0 and q.last_price <= q.avg_cost * 0.8
) p
join "customer" "c" on "c"."id" = p.customer_id
where p.loss_hkd >= 50000
on conflict ("rule", "customer_id", "fact_key") do nothing
returning 1
)
select count(*)::int as "inserted" from fired;

-- MOT rules (the daily sweep, mot-engine.ts), statement 9 of 16
with fired as (
insert into "mot_event" ("customer_name_en", "corp_id", "rule", "customer_id", "staff_id", "fact_key", "due_date", "facts")
select "c"."name_en", "c"."corp_id", 'unfunded', "c"."id", "c"."staff_id", "c"."open_date"::text, $1::date,
jsonb_build_object('openDate', "c"."open_date", 'daysSinceOpen', $2::date - "c"."open_date", 'afterDays', 14)
from "customer" "c"
where "c"."status" <> 'closed' and true
and "c"."open_date" between $3::date - 90 and $4::date - 14
and not exists (select 1 from "money_movement" "m" where "m"."customer_id" = "c"."id" and "m"."direction" = 'deposit')
and not exists (select 1 from "stock_transfer" "t" where "t"."customer_id" = "c"."id" and "t"."direction" = 'in')
on conflict ("rule", "customer_id", "fact_key") do nothing
returning 1
)
select count(*)::int as "inserted" from fired;

-- MOT rules (the daily sweep, mot-engine.ts), statement 10 of 16
with fired as (
insert into "mot_event" ("customer_name_en", "corp_id", "rule", "customer_id", "staff_id", "fact_key", "due_date", "facts")
select "c"."name_en", "c"."corp_id", 'anniversary', "c"."id", "c"."staff_id", extract(year from y.next_date)::int::text, y.next_date,
jsonb_build_object('openDate', "c"."open_date", 'date', y.next_date, 'years', y.years, 'lookaheadDays', 7)
from "customer" "c"
cross join lateral (select n.next_date, (extract(year from n.next_date) - extract(year from "c"."open_date"))::int as years
from (select case when ("c"."open_date" + make_interval(years => (extract(year from $1::date) - extract(year from "c"."open_date"))::int))::date >= $2::date then ("c"."open_date" + make_interval(years => (extract(year from $3::date) - extract(year from "c"."open_date"))::int))::date else ("c"."open_date" + make_interval(years => (extract(year from $4::date) - extract(year from "c"."open_date"))::int + 1))::date end as next_date) n) y
where "c"."status" <> 'closed' and true and "c"."open_date" is not null
and y.next_date <= $5::date + 7 and y.years >= 1
on conflict ("rule", "customer_id", "fact_key") do nothing
returning 1
)
select count(*)::int as "inserted" from fired;

-- MOT rules (the daily sweep, mot-engine.ts), statement 11 of 16
with fired as (
insert into "mot_event" ("customer_name_en", "corp_id", "rule", "customer_id", "staff_id", "fact_key", "due_date", "facts")
select "c"."name_en", "c"."corp_id", 'id_expiry', "c"."id", "c"."staff_id", w.fact_key, $1::date,
jsonb_build_object('expiryDate', e.expiry, 'daysToExpiry', e.expiry - $2::date, 'lookaheadDays', w.lookahead_days, 'idDocType', "c"."id_doc_type")
|| case when w.is_final then jsonb_build_object('warning', 'final') else '{}'::jsonb end
from "customer" "c"
cross join lateral (select "c"."id_doc_expiry" as expiry) e
cross join lateral (values (e.expiry::text, 30, false),
(e.expiry::text || '@' || 7 || 'd', 7, true))
w (fact_key, lookahead_days, is_final)
where "c"."status" <> 'closed' and true
and e.expiry between $3::date - 30 and $4::date + 30
and (not w.is_final
or (e.expiry between $5::date and $6::date + 7
and exists (select 1 from "mot_event" "pe"
where "pe"."rule" = 'id_expiry' and "pe"."customer_id" = "c"."id" and "pe"."fact_key" = e.expiry::text
and "pe"."due_date" < e.expiry - 7)))
on conflict ("rule", "customer_id", "fact_key") do nothing
returning 1
)
select count(*)::int as "inserted" from fired;

-- MOT rules (the daily sweep, mot-engine.ts), statement 12 of 16
with fired as (
insert into "mot_event" ("customer_name_en", "corp_id", "rule", "customer_id", "staff_id", "fact_key", "due_date", "facts")
select "c"."name_en", "c"."corp_id", 'risk_expiry', "c"."id", "c"."staff_id", w.fact_key, $1::date,
jsonb_build_object('expiryDate', e.expiry, 'daysToExpiry', e.expiry - $2::date, 'lookaheadDays', w.lookahead_days, 'assessedOn', "c"."risk_assessed_on", 'riskLevel', "c"."risk_level", 'validYears', 2)
|| case when w.is_final then jsonb_build_object('warning', 'final') else '{}'::jsonb end
from "customer" "c"
cross join lateral (select ("c"."risk_assessed_on" + make_interval(years => 2))::date as expiry) e
cross join lateral (values (e.expiry::text, 30, false),
(e.expiry::text || '@' || 7 || 'd', 7, true))
w (fact_key, lookahead_days, is_final)
where "c"."status" <> 'closed' and true
and e.expiry between $3::date - 30 and $4::date + 30
and (not w.is_final
or (e.expiry between $5::date and $6::date + 7
and exists (select 1 from "mot_event" "pe"
where "pe"."rule" = 'risk_expiry' and "pe"."customer_id" = "c"."id" and "pe"."fact_key" = e.expiry::text
and "pe"."due_date" < e.expiry - 7)))
on conflict ("rule", "customer_id", "fact_key") do nothing
returning 1
)
select count(*)::int as "inserted" from fired;

-- MOT rules (the daily sweep, mot-engine.ts), statement 13 of 16
with fired as (
insert into "mot_event" ("customer_name_en", "corp_id", "rule", "customer_id", "staff_id", "fact_key", "due_date", "facts")
select "c"."name_en", "c"."corp_id", 'negative_equity', "c"."id", "c"."staff_id", $1::date::text, $2::date,
jsonb_build_object('netAssetsHkd', "c"."total_assets_hkd", 'cashHkd', "c"."cash_hkd", 'marketValueHkd', "c"."market_value_hkd",
'shortfallHkd', -"c"."total_assets_hkd", 'repeatDays', 7)
from "customer" "c"
where "c"."total_assets_hkd" < 0 and "c"."status" <> 'closed' and true
and not exists (select 1 from "mot_event" "pe"
where "pe"."rule" = 'negative_equity' and "pe"."customer_id" = "c"."id"
and ("pe"."status" <> 'handled' or "pe"."due_date" > $3::date - 7))
on conflict ("rule", "customer_id", "fact_key") do nothing
returning 1
)
select count(*)::int as "inserted" from fired;

-- MOT rules (the daily sweep, mot-engine.ts), statement 14 of 16
with fired as (
insert into "mot_event" ("customer_name_en", "corp_id", "rule", "customer_id", "staff_id", "fact_key", "due_date", "facts")
select "c"."name_en", "c"."corp_id", 'concentration', "c"."id", "c"."staff_id", p.symbol || '@' || to_char($1::date, 'YYYY-"Q"Q'), $2::date,
jsonb_build_object('symbol', p.symbol, 'securityNameCn', p.name_cn, 'securityNameHk', p.name_hk, 'securityNameEn', p.name_en, 'currency', p.currency,
'quantity', p.quantity, 'lastPrice', p.last_price, 'priceDate', p.price_date,
'positionHkd', round(p.value_hkd, 2), 'assetsHkd', a.assets_hkd,
'sharePct', round(p.value_hkd * 100 / a.assets_hkd, 2),
'minSharePct', 50, 'minPositionHkd', 1000000)
from (
select "h"."customer_id", "sec"."symbol", "sec"."name_cn", "sec"."name_hk", "sec"."name_en", "sec"."currency", "sec"."last_price", "sec"."price_date",
sum("h"."quantity") as quantity, sum("h"."quantity") * "sec"."last_price" / r.rate as value_hkd
from "customer" "c"
join "holding" "h" on "h"."customer_id" = "c"."id"
join "security" "sec" on "sec"."id" = "h"."security_id"
-- One rate per currency (as position_loss; offset 0 keeps the lookup from being pulled into every row).
join (select cur.currency, coalesce(
(select "er"."rate" from "exchange_rate" "er" where "er"."currency" = cur.currency and "er"."rate_date" <= $3::date order by "er"."rate_date" desc limit 1),
(select "er"."rate" from "exchange_rate" "er" where "er"."currency" = cur.currency order by "er"."rate_date" desc limit 1),
case when cur.currency = 'HKD' then 1 end) as rate from (select distinct "security"."currency" from "security") cur offset 0) r
on r.currency = "sec"."currency"
where "c"."market_value_hkd" >= 1000000 and "c"."status" <> 'closed' and true and "h"."quantity" > 0
group by "h"."customer_id", "sec"."id", r.rate
) p
join "customer" "c" on "c"."id" = p.customer_id
cross join lateral (select "c"."market_value_hkd" + greatest("c"."cash_hkd", 0) as assets_hkd) a
where p.value_hkd >= 1000000 and a.assets_hkd > 0
and p.value_hkd * 100 > a.assets_hkd * 50
on conflict ("rule", "customer_id", "fact_key") do nothing
returning 1
)
select count(*)::int as "inserted" from fired;

-- MOT rules (the daily sweep, mot-engine.ts), statement 15 of 16
with fired as (
insert into "mot_event" ("customer_name_en", "corp_id", "rule", "customer_id", "staff_id", "fact_key", "due_date", "facts")
select "c"."name_en", "c"."corp_id", 'particulars_changed_withdrawal', "c"."id", "c"."staff_id", "m"."id"::text, ("m"."occurred_at" at time zone 'Asia/Hong_Kong')::date,
jsonb_build_object('movementId', "m"."id", 'amount', "m"."amount", 'currency', "m"."currency", 'rate', x.rate,
'amountHkd', round("m"."amount" / x.rate, 2), 'thresholdHkd', "s"."min_cash_io",
'method', "m"."method", 'occurredAt', to_char("m"."occurred_at" at time zone 'Asia/Hong_Kong', 'YYYY-MM-DD HH24:MI'),
'changedFields', p.fields, 'changedAt', to_char(p.changed_at at time zone 'Asia/Hong_Kong', 'YYYY-MM-DD HH24:MI'),
'changedBy', p.changed_by, 'daysBetween', ("m"."occurred_at" at time zone 'Asia/Hong_Kong')::date - (p.changed_at at time zone 'Asia/Hong_Kong')::date,
'withinDays', 14)
from "money_movement" "m"
join "customer" "c" on "c"."id" = "m"."customer_id"
join "staff" "s" on "s"."id" = "c"."staff_id"
cross join lateral (select coalesce(
(select "er"."rate" from "exchange_rate" "er" where "er"."currency" = "m"."currency" and "er"."rate_date" <= ("m"."occurred_at" at time zone 'Asia/Hong_Kong')::date order by "er"."rate_date" desc limit 1),
(select "er"."rate" from "exchange_rate" "er" where "er"."currency" = "m"."currency" order by "er"."rate_date" desc limit 1),
case when "m"."currency" = 'HKD' then 1 end) as rate) x
cross join lateral (
-- The latest qualifying edit before the withdrawal, and every particular changed in the window.
select max("al"."at") as changed_at, string_agg(distinct k.field, ',' order by k.field) as fields,
(array_agg("actor"."name" order by "al"."at" desc))[1] as changed_by
from "audit_log" "al"
cross join lateral jsonb_object_keys(coalesce("al"."after", '{}'::jsonb)) k (field)
left join "staff" "actor" on "actor"."id" = "al"."actor_staff_id"
where "al"."entity" = 'customer' and "al"."entity_id" = "c"."id"::text
and "al"."at" >= ((("m"."occurred_at" at time zone 'Asia/Hong_Kong')::date - 14)::timestamp at time zone 'Asia/Hong_Kong')
and "al"."at" <= "m"."occurred_at"
and "al"."action" = 'customer.update'
and k.field in ('phone', 'email')
) p
where "m"."direction" = 'withdrawal'
and "m"."occurred_at" >= (($1::date - 7)::timestamp at time zone 'Asia/Hong_Kong')
and "m"."occurred_at" < (($2::date + 1)::timestamp at time zone 'Asia/Hong_Kong')
and "c"."status" <> 'closed' and true
and "m"."amount" / x.rate >= "s"."min_cash_io"
and p.changed_at is not null
on conflict ("rule", "customer_id", "fact_key") do nothing
returning 1
)
select count(*)::int as "inserted" from fired;

-- MOT rules (the daily sweep, mot-engine.ts), statement 16 of 16
with fired as (
insert into "mot_event" ("customer_name_en", "corp_id", "rule", "customer_id", "staff_id", "fact_key", "due_date", "facts")
select "c"."name_en", "c"."corp_id", 'vulnerable_client', "c"."id", "c"."staff_id", v.fact_key, v.due_date,
v.facts || jsonb_build_object('age', g.age, 'minAge', 65)
from "customer" "c"
join "staff" "s" on "s"."id" = "c"."staff_id"
cross join lateral (select extract(year from age($1::date::timestamp, "c"."birthday"::timestamp))::int as age) g
cross join lateral (
select 'withdrawal:' || "m"."id", ("m"."occurred_at" at time zone 'Asia/Hong_Kong')::date,
jsonb_build_object('trigger', 'withdrawal', 'movementId', "m"."id", 'amount', "m"."amount", 'currency', "m"."currency", 'rate', x.rate,
'amountHkd', round("m"."amount" / x.rate, 2), 'thresholdHkd', "s"."min_cash_io",
'method', "m"."method", 'occurredAt', to_char("m"."occurred_at" at time zone 'Asia/Hong_Kong', 'YYYY-MM-DD HH24:MI'))
from "money_movement" "m"
cross join lateral (select coalesce(
(select "er"."rate" from "exchange_rate" "er" where "er"."currency" = "m"."currency" and "er"."rate_date" <= ("m"."occurred_at" at time zone 'Asia/Hong_Kong')::date order by "er"."rate_date" desc limit 1),
(select "er"."rate" from "exchange_rate" "er" where "er"."currency" = "m"."currency" order by "er"."rate_date" desc limit 1),
case when "m"."currency" = 'HKD' then 1 end) as rate) x
where "m"."customer_id" = "c"."id" and "m"."direction" = 'withdrawal'
and "m"."occurred_at" >= (($2::date - 7)::timestamp at time zone 'Asia/Hong_Kong')
and "m"."occurred_at" < (($3::date + 1)::timestamp at time zone 'Asia/Hong_Kong')
and "m"."amount" / x.rate >= "s"."min_cash_io"
union all
select 'market:' || f.market, (f.traded_at at time zone 'Asia/Hong_Kong')::date,
jsonb_build_object('trigger', 'new_market', 'market', f.market, 'tradeId', f.id, 'symbol', f.symbol,
'securityNameCn', f.name_cn, 'securityNameHk', f.name_hk, 'securityNameEn', f.name_en, 'side', f.side, 'quantity', f.quantity,
'occurredAt', to_char(f.traded_at at time zone 'Asia/Hong_Kong', 'YYYY-MM-DD HH24:MI'),
'previousMarkets', coalesce((select string_agg(distinct "sp"."market", ',' order by "sp"."market")
from "trade" "tp" join "security" "sp" on "sp"."id" = "tp"."security_id"
where "tp"."customer_id" = "c"."id" and "tp"."traded_at" < f.traded_at), ''))
from (
-- The client's first trade of the look-back in each market.
select distinct on ("sec"."market") "tr"."id", "tr"."traded_at", "tr"."side", "tr"."quantity", "sec"."market", "sec"."symbol", "sec"."name_cn", "sec"."name_hk", "sec"."name_en"
from "trade" "tr" join "security" "sec" on "sec"."id" = "tr"."security_id"
where "tr"."customer_id" = "c"."id"
and "tr"."traded_at" >= (($4::date - 7)::timestamp at time zone 'Asia/Hong_Kong')
and "tr"."traded_at" < (($5::date + 1)::timestamp at time zone 'Asia/Hong_Kong')
order by "sec"."market", "tr"."traded_at", "tr"."id"
) f
where not exists (select 1 from "trade" "tp" join "security" "sp" on "sp"."id" = "tp"."security_id"
where "tp"."customer_id" = "c"."id" and "tp"."traded_at" < f.traded_at and "sp"."market" = f.market)
) v (fact_key, due_date, facts)
where "c"."status" <> 'closed' and true
and "c"."birthday" <= ($6::date - make_interval(years => 65))::date
on conflict ("rule", "customer_id", "fact_key") do nothing
returning 1
)
select count(*)::int as "inserted" from fired;
