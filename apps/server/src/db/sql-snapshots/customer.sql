-- getAsset: GET /api/client/customer/getAsset
-- prepared
select (select coalesce(json_agg(t), '[]'::json) from (select "c"."staff_id" as "staffId" from "customer" "c" where "c"."id" = $1 and "c"."corp_id" = $2) t) as "owner", (select coalesce(json_agg(t), '[]'::json) from (with recursive currencies as (
(select "exchange_rate"."currency" from "exchange_rate" order by "exchange_rate"."currency" limit 1)
union all
select (select "e"."currency" from "exchange_rate" "e" where "e"."currency" > currencies.currency order by "e"."currency" limit 1)
from currencies where currencies.currency is not null
)
select cur.currency, (select "e"."rate" from "exchange_rate" "e" where "e"."currency" = cur.currency order by "e"."rate_date" desc limit 1)::float8 as rate
from currencies cur where cur.currency is not null) t) as "rateRows", (select coalesce(json_agg(t), '[]'::json) from (select "cb"."currency" as "currency",
sum("cb"."balance")::float8 as "balance" from "cash_balance" "cb" join "account" "a" on "a"."id" = "cb"."account_id" join "customer" "c" on "c"."id" = "a"."customer_id" where "c"."id" = $3 and "c"."corp_id" = $4 and "c"."staff_id" = $5 group by "cb"."currency" order by "cb"."currency") t) as "cash", (select coalesce(json_agg(t), '[]'::json) from (select "a"."account_no" as "accountNo",
"s"."symbol" as "symbol",
"s"."name_cn" as "nameCn",
"s"."name_hk" as "nameHk",
"s"."name_en" as "nameEn",
"s"."market" as "market",
"s"."currency" as "currency",
"h"."quantity"::float8 as "quantity",
"h"."avg_cost"::float8 as "avgCost",
"s"."last_price"::float8 as "lastPrice",
"s"."prev_close"::float8 as "prevClose",
"s"."price_date"::text as "priceDate" from "holding" "h" join "customer" "c" on "c"."id" = "h"."customer_id" join "account" "a" on "a"."id" = "h"."account_id" join "security" "s" on "s"."id" = "h"."security_id" where "c"."id" = $6 and "c"."corp_id" = $7 and "c"."staff_id" = $8 and "h"."quantity" > 0  order by "s"."symbol", "a"."account_no") t) as "holdings";

-- getBaseInfo: GET /api/client/customer/getBaseInfo
-- getProfile: GET /api/client/customer/getProfile
-- prepared
select (select coalesce(json_agg(t), '[]'::json) from (select "c"."staff_id" as "staffId" from "customer" "c" where "c"."id" = $1 and "c"."corp_id" = $2) t) as "owner", (select coalesce(json_agg(t), '[]'::json) from (select "c"."id"::float8 as "id",
"c"."customer_no" as "customerNo",
"c"."name_cn" as "nameCn",
"c"."name_en" as "nameEn",
"c"."gender" as "gender",
"c"."birthday"::text as "birthday",
"c"."phone" as "phone",
"c"."email" as "email",
"c"."id_doc_type" as "idDocType",
"c"."id_doc_masked" as "idDocMasked",
"c"."id_doc_expiry"::text as "idDocExpiry",
"c"."risk_level" as "riskLevel",
"c"."risk_assessed_on"::text as "riskAssessedOn",
"c"."status" as "status",
"c"."channel" as "channel",
"c"."open_date"::text as "openDate",
"c"."closed_date"::text as "closedDate",
"c"."tags" as "tags",
"c"."remark" as "remark",
"c"."version" as "version",
floor(extract(epoch from "c"."updated_at") * 1000)::float8 as "updatedAt",
"c"."total_assets_hkd"::float8 as "totalAssetsHkd",
"c"."last_trade_date"::text as "lastTradeDate",
exists (select 1 from "kyc_binding" "k" where "k"."customer_id" = "c"."id" and "k"."corp_id" = "c"."corp_id") as "kycBound",
exists (select 1 from "kyc_binding" "k" where "k"."customer_id" = "c"."id" and "k"."corp_id" = "c"."corp_id" and "k"."stale_at" is not null) as "kycStale",
coalesce((select json_agg(json_build_object('accountNo', "a"."account_no", 'type', "a"."type", 'status', "a"."status", 'openDate', "a"."open_date"::text) order by "a"."id")
from "account" "a" where "a"."customer_id" = "c"."id"), '[]'::json) as "accounts" from "customer" "c" where "c"."id" = $3 and "c"."corp_id" = $4 and "c"."staff_id" = $5) t) as "customer";

-- getDynamic: GET /api/client/customer/getDynamic
-- getTimeline: GET /api/client/customer/getTimeline
-- prepared
select (select coalesce(json_agg(t), '[]'::json) from (select "c"."staff_id" as "staffId" from "customer" "c" where "c"."id" = $1 and "c"."corp_id" = $2) t) as "owner", (select coalesce(json_agg(t), '[]'::json) from (with recursive currencies as (
(select "exchange_rate"."currency" from "exchange_rate" order by "exchange_rate"."currency" limit 1)
union all
select (select "e"."currency" from "exchange_rate" "e" where "e"."currency" > currencies.currency order by "e"."currency" limit 1)
from currencies where currencies.currency is not null
)
select cur.currency, (select "e"."rate" from "exchange_rate" "e" where "e"."currency" = cur.currency order by "e"."rate_date" desc limit 1)::float8 as rate
from currencies cur where cur.currency is not null) t) as "rateRows", (select coalesce(json_agg(t), '[]'::json) from (select page.* from "customer" "c" join "staff" "me" on "me"."id" = "c"."staff_id"
cross join lateral ((select 'contact' as source, 8 as rank, "r"."id"::float8 as id, (extract(epoch from "r"."served_at") * 1000000)::float8 as "atMicros", floor(extract(epoch from "r"."served_at") * 1000)::float8 as "at",
"actor"."name" as "staffName",
json_build_object('threadId', "r"."thread_id"::float8, 'version', "r"."version", 'channel', "r"."channel", 'purpose', "r"."purpose",
'note', left("r"."note", 140), 'outcome', "r"."outcome", 'nextStep', "r"."next_step",
'nextStepDate', "r"."next_step_date"::text) as data
from "contact_record" "r" left join "staff" "actor" on "actor"."id" = "r"."staff_id"
where $3::boolean and "r"."customer_id" = "c"."id" and "r"."superseded_by" is null and "r"."served_at" <= (timestamptz 'epoch' + $4::float8 * interval '1 microsecond') and ("r"."served_at" < (timestamptz 'epoch' + $5::float8 * interval '1 microsecond') or 8 < $6::int or (8 = $7::int and "r"."id" < $8::bigint))
order by "r"."served_at" desc, "r"."id" desc limit $9) union all (select 'trade' as source, 0 as rank, "t"."id"::float8 as id, (extract(epoch from "t"."traded_at") * 1000000)::float8 as "atMicros", floor(extract(epoch from "t"."traded_at") * 1000)::float8 as "at", null::text as "staffName",
json_build_object('side', "t"."side", 'symbol', "s"."symbol", 'nameCn', "s"."name_cn", 'nameHk', "s"."name_hk", 'nameEn', "s"."name_en", 'quantity', "t"."quantity"::float8,
'price', "t"."price"::float8, 'amount', "t"."amount"::float8, 'currency', "t"."currency") as data
from (select "tk"."id", "tk"."traded_at" from "trade" "tk"
where $10::boolean and "tk"."customer_id" = "c"."id" and "tk"."traded_at" <= (timestamptz 'epoch' + $11::float8 * interval '1 microsecond') and ("tk"."traded_at" < (timestamptz 'epoch' + $12::float8 * interval '1 microsecond') or 0 < $13::int or (0 = $14::int and "tk"."id" < $15::bigint))
order by "tk"."traded_at" desc, "tk"."id" desc limit $16) as trade_page
join lateral (select * from "trade" "t" where "t"."id" = trade_page.id and "t"."traded_at" = trade_page.traded_at offset 0) "t" on true join "security" "s" on "s"."id" = "t"."security_id") union all (select 'money' as source, 2 as rank, "m"."id"::float8 as id, (extract(epoch from "m"."occurred_at") * 1000000)::float8 as "atMicros", floor(extract(epoch from "m"."occurred_at") * 1000)::float8 as "at", null::text as "staffName",
json_build_object('direction', "m"."direction", 'currency', "m"."currency", 'amount', "m"."amount"::float8, 'method', "m"."method") as data
from (select "mk"."id", "mk"."occurred_at" from "money_movement" "mk"
where $17::boolean and "mk"."customer_id" = "c"."id" and "mk"."occurred_at" <= (timestamptz 'epoch' + $18::float8 * interval '1 microsecond') and ("mk"."occurred_at" < (timestamptz 'epoch' + $19::float8 * interval '1 microsecond') or 2 < $20::int or (2 = $21::int and "mk"."id" < $22::bigint))
and (not $23::boolean or "mk"."amount" >= "me"."min_cash_io" * case when "mk"."currency" = 'HKD' then 1 else (select "er"."rate" from "exchange_rate" "er" where "er"."currency" = "mk"."currency" order by "er"."rate_date" desc limit 1) end)
order by "mk"."occurred_at" desc, "mk"."id" desc limit $24) as money_page
join lateral (select * from "money_movement" "m" where "m"."id" = money_page.id and "m"."occurred_at" = money_page.occurred_at offset 0) "m" on true) union all (select 'transfer' as source, 1 as rank, "x"."id"::float8 as id, (extract(epoch from "x"."occurred_at") * 1000000)::float8 as "atMicros", floor(extract(epoch from "x"."occurred_at") * 1000)::float8 as "at", null::text as "staffName",
json_build_object('direction', "x"."direction", 'symbol', "s"."symbol", 'nameCn', "s"."name_cn", 'nameHk', "s"."name_hk", 'nameEn', "s"."name_en", 'currency', "s"."currency",
'quantity', "x"."quantity"::float8, 'counterparty', "x"."counterparty") as data
from (select "xk"."id", "xk"."occurred_at" from "stock_transfer" "xk"
where $25::boolean and "xk"."customer_id" = "c"."id" and "xk"."occurred_at" <= (timestamptz 'epoch' + $26::float8 * interval '1 microsecond') and ("xk"."occurred_at" < (timestamptz 'epoch' + $27::float8 * interval '1 microsecond') or 1 < $28::int or (1 = $29::int and "xk"."id" < $30::bigint))
order by "xk"."occurred_at" desc, "xk"."id" desc limit $31) as transfer_page
join lateral (select * from "stock_transfer" "x" where "x"."id" = transfer_page.id and "x"."occurred_at" = transfer_page.occurred_at offset 0) "x" on true join "security" "s" on "s"."id" = "x"."security_id") union all (select 'profileEdit' as source, 3 as rank, "l"."id"::float8 as id, (extract(epoch from "l"."at") * 1000000)::float8 as "atMicros", floor(extract(epoch from "l"."at") * 1000)::float8 as "at",
"actor"."name" as "staffName", json_build_object('action', "l"."action", 'before', "l"."before", 'after', "l"."after") as data
from "audit_log" "l" left join "staff" "actor" on "actor"."id" = "l"."actor_staff_id"
where $32::boolean and "l"."entity" = 'customer' and "l"."entity_id" = $33 and "l"."action" = 'customer.update' and "l"."at" <= (timestamptz 'epoch' + $34::float8 * interval '1 microsecond') and ("l"."at" < (timestamptz 'epoch' + $35::float8 * interval '1 microsecond') or 3 < $36::int or (3 = $37::int and "l"."id" < $38::bigint))
order by "l"."at" desc, "l"."id" desc limit $39) union all (select 'kyc' as source, 4 as rank, "l"."id"::float8 as id, (extract(epoch from "l"."at") * 1000000)::float8 as "atMicros", floor(extract(epoch from "l"."at") * 1000)::float8 as "at",
"actor"."name" as "staffName", json_build_object('action', "l"."action", 'before', "l"."before", 'after', "l"."after") as data
from "audit_log" "l" left join "staff" "actor" on "actor"."id" = "l"."actor_staff_id"
where $40::boolean and "l"."entity" = 'kyc_binding' and coalesce("l"."after", "l"."before") ->> 'customerId' = $41 and "l"."action" in ('kyc.bind', 'kyc.unbind', 'kyc.stale', 'kyc.fresh') and "l"."at" <= (timestamptz 'epoch' + $42::float8 * interval '1 microsecond') and ("l"."at" < (timestamptz 'epoch' + $43::float8 * interval '1 microsecond') or 4 < $44::int or (4 = $45::int and "l"."id" < $46::bigint))
order by "l"."at" desc, "l"."id" desc limit $47) union all (select 'mot' as source, stage.rank, "e"."id"::float8 as id, (extract(epoch from stage.at) * 1000000)::float8 as "atMicros", floor(extract(epoch from stage.at) * 1000)::float8 as "at",
case when stage.name = 'raised' then null else "actor"."name" end as "staffName",
json_build_object('rule', "e"."rule", 'stage', stage.name, 'dueDate', "e"."due_date"::text) as data
from "mot_event" "e"
cross join lateral (values (5, 'raised', "e"."created_at"), (6, 'seen', "e"."seen_at"),
(7, 'handled', "e"."handled_at")) as stage(rank, name, at)
left join "staff" "actor" on "actor"."id" = "e"."staff_id"
where $48::boolean and "e"."customer_id" = "c"."id" and stage.at is not null and stage.at <= (timestamptz 'epoch' + $49::float8 * interval '1 microsecond') and (stage.at < (timestamptz 'epoch' + $50::float8 * interval '1 microsecond') or stage.rank < $51::int or (stage.rank = $52::int and "e"."id" < $53::bigint))
order by stage.at desc, stage.rank desc, "e"."id" desc limit $54)) as page
where "c"."id" = $55 and "c"."corp_id" = $56 and "c"."staff_id" = $57
order by page."atMicros" desc, page.rank desc, page.id desc limit $58) t) as "rows";

-- getHolding: GET /api/client/customer/getHolding
-- prepared
select (select coalesce(json_agg(t), '[]'::json) from (select "c"."staff_id" as "staffId" from "customer" "c" where "c"."id" = $1 and "c"."corp_id" = $2) t) as "owner", (select coalesce(json_agg(t), '[]'::json) from (with recursive currencies as (
(select "exchange_rate"."currency" from "exchange_rate" order by "exchange_rate"."currency" limit 1)
union all
select (select "e"."currency" from "exchange_rate" "e" where "e"."currency" > currencies.currency order by "e"."currency" limit 1)
from currencies where currencies.currency is not null
)
select cur.currency, (select "e"."rate" from "exchange_rate" "e" where "e"."currency" = cur.currency order by "e"."rate_date" desc limit 1)::float8 as rate
from currencies cur where cur.currency is not null) t) as "rateRows", (select coalesce(json_agg(t), '[]'::json) from (select "a"."account_no" as "accountNo",
"s"."symbol" as "symbol",
"s"."name_cn" as "nameCn",
"s"."name_hk" as "nameHk",
"s"."name_en" as "nameEn",
"s"."market" as "market",
"s"."currency" as "currency",
"h"."quantity"::float8 as "quantity",
"h"."avg_cost"::float8 as "avgCost",
"s"."last_price"::float8 as "lastPrice",
"s"."prev_close"::float8 as "prevClose",
"s"."price_date"::text as "priceDate" from "holding" "h" join "customer" "c" on "c"."id" = "h"."customer_id" join "account" "a" on "a"."id" = "h"."account_id" join "security" "s" on "s"."id" = "h"."security_id" where "c"."id" = $3 and "c"."corp_id" = $4 and "c"."staff_id" = $5 and "h"."quantity" > 0  order by "s"."symbol", "a"."account_no") t) as "rows";

-- getReach: GET /api/client/customer/getReach
-- prepared
select (select coalesce(json_agg(t), '[]'::json) from (select "c"."staff_id" as "staffId" from "customer" "c" where "c"."id" = $1 and "c"."corp_id" = $2) t) as "owner", (select coalesce(json_agg(t), '[]'::json) from (select "c"."id"::float8 as "id",
"c"."name_cn" as "nameCn",
"c"."name_en" as "nameEn",
"c"."phone" as "phone",
(select "k"."external_user_id" from "kyc_binding" "k" where "k"."customer_id" = "c"."id" and "k"."corp_id" = "c"."corp_id") as "externalUserId",
exists (select 1 from "kyc_binding" "k" where "k"."customer_id" = "c"."id" and "k"."corp_id" = "c"."corp_id" and "k"."stale_at" is not null) as "wecomStale" from "customer" "c" where "c"."id" = $3 and "c"."corp_id" = $4 and "c"."staff_id" = $5) t) as "reach";

-- getTrade: GET /api/client/customer/getTrade
-- prepared
select (select coalesce(json_agg(t), '[]'::json) from (select "c"."staff_id" as "staffId" from "customer" "c" where "c"."id" = $1 and "c"."corp_id" = $2) t) as "owner", (select coalesce(json_agg(t), '[]'::json) from (with recursive currencies as (
(select "exchange_rate"."currency" from "exchange_rate" order by "exchange_rate"."currency" limit 1)
union all
select (select "e"."currency" from "exchange_rate" "e" where "e"."currency" > currencies.currency order by "e"."currency" limit 1)
from currencies where currencies.currency is not null
)
select cur.currency, (select "e"."rate" from "exchange_rate" "e" where "e"."currency" = cur.currency order by "e"."rate_date" desc limit 1)::float8 as rate
from currencies cur where cur.currency is not null) t) as "rateRows", (select coalesce(json_agg(t), '[]'::json) from (select "t"."id"::float8 as "id",
"a"."account_no" as "accountNo",
"s"."symbol" as "symbol",
"s"."name_cn" as "nameCn",
"s"."name_hk" as "nameHk",
"s"."name_en" as "nameEn",
"s"."market" as "market",
"t"."side" as "side",
"t"."quantity"::float8 as "quantity",
"t"."price"::float8 as "price",
"t"."amount"::float8 as "amount",
"t"."fee"::float8 as "fee",
"t"."currency" as "currency",
floor(extract(epoch from "t"."traded_at") * 1000)::float8 as "tradedAt",
"t"."settle_date"::text as "settleDate",
"t"."settle_date" <= (now() at time zone 'Asia/Hong_Kong')::date as "settled" from "trade" "t" join "customer" "c" on "c"."id" = "t"."customer_id" join "security" "s" on "s"."id" = "t"."security_id" join "account" "a" on "a"."id" = "t"."account_id"
where "c"."id" = $3 and "c"."corp_id" = $4 and "c"."staff_id" = $5 order by "t"."traded_at" desc, "t"."id" desc limit $6 offset $7) t) as "list", (select coalesce(json_agg(t), '[]'::json) from (select "t"."side" as "side",
"t"."currency" as "currency",
count(*)::int as "count",
sum("t"."amount")::float8 as "amount",
sum("t"."fee")::float8 as "fee" from "trade" "t" join "customer" "c" on "c"."id" = "t"."customer_id" join "security" "s" on "s"."id" = "t"."security_id" where "c"."id" = $8 and "c"."corp_id" = $9 and "c"."staff_id" = $10 group by "t"."side", "t"."currency") t) as "totals";

-- getTransfer: GET /api/client/customer/getTransfer
-- prepared
select (select coalesce(json_agg(t), '[]'::json) from (select "c"."staff_id" as "staffId" from "customer" "c" where "c"."id" = $1 and "c"."corp_id" = $2) t) as "owner", (select coalesce(json_agg(t), '[]'::json) from (with recursive currencies as (
(select "exchange_rate"."currency" from "exchange_rate" order by "exchange_rate"."currency" limit 1)
union all
select (select "e"."currency" from "exchange_rate" "e" where "e"."currency" > currencies.currency order by "e"."currency" limit 1)
from currencies where currencies.currency is not null
)
select cur.currency, (select "e"."rate" from "exchange_rate" "e" where "e"."currency" = cur.currency order by "e"."rate_date" desc limit 1)::float8 as rate
from currencies cur where cur.currency is not null) t) as "rateRows", (select coalesce(json_agg(t), '[]'::json) from (select "x"."id"::float8 as "id",
"a"."account_no" as "accountNo",
"x"."direction" as "direction",
"s"."symbol" as "symbol",
"s"."name_cn" as "nameCn",
"s"."name_hk" as "nameHk",
"s"."name_en" as "nameEn",
"s"."market" as "market",
"s"."currency" as "currency",
"x"."quantity"::float8 as "quantity",
"s"."last_price"::float8 as "lastPrice",
"x"."counterparty" as "counterparty",
floor(extract(epoch from "x"."occurred_at") * 1000)::float8 as "occurredAt" from "stock_transfer" "x" join "customer" "c" on "c"."id" = "x"."customer_id" join "security" "s" on "s"."id" = "x"."security_id" join "account" "a" on "a"."id" = "x"."account_id"
where "c"."id" = $3 and "c"."corp_id" = $4 and "c"."staff_id" = $5 order by "x"."occurred_at" desc, "x"."id" desc limit $6 offset $7) t) as "list", (select coalesce(json_agg(t), '[]'::json) from (select "x"."direction" as "direction",
"s"."currency" as "currency",
count(*)::int as "count",
sum("x"."quantity" * "s"."last_price")::float8 as "value" from "stock_transfer" "x" join "customer" "c" on "c"."id" = "x"."customer_id" join "security" "s" on "s"."id" = "x"."security_id" where "c"."id" = $8 and "c"."corp_id" = $9 and "c"."staff_id" = $10 group by "x"."direction", "s"."currency") t) as "totals";

-- getWithdrawalDeposit: GET /api/client/customer/getWithdrawalDeposit
-- prepared
select (select coalesce(json_agg(t), '[]'::json) from (select "c"."staff_id" as "staffId" from "customer" "c" where "c"."id" = $1 and "c"."corp_id" = $2) t) as "owner", (select coalesce(json_agg(t), '[]'::json) from (with recursive currencies as (
(select "exchange_rate"."currency" from "exchange_rate" order by "exchange_rate"."currency" limit 1)
union all
select (select "e"."currency" from "exchange_rate" "e" where "e"."currency" > currencies.currency order by "e"."currency" limit 1)
from currencies where currencies.currency is not null
)
select cur.currency, (select "e"."rate" from "exchange_rate" "e" where "e"."currency" = cur.currency order by "e"."rate_date" desc limit 1)::float8 as rate
from currencies cur where cur.currency is not null) t) as "rateRows", (select coalesce(json_agg(t), '[]'::json) from (select "m"."id"::float8 as "id",
"a"."account_no" as "accountNo",
"m"."direction" as "direction",
"m"."currency" as "currency",
"m"."amount"::float8 as "amount",
"m"."method" as "method",
floor(extract(epoch from "m"."occurred_at") * 1000)::float8 as "occurredAt" from "money_movement" "m" join "customer" "c" on "c"."id" = "m"."customer_id" join "account" "a" on "a"."id" = "m"."account_id"
where "c"."id" = $3 and "c"."corp_id" = $4 and "c"."staff_id" = $5 order by "m"."occurred_at" desc, "m"."id" desc limit $6 offset $7) t) as "list", (select coalesce(json_agg(t), '[]'::json) from (select "m"."direction" as "direction",
"m"."currency" as "currency",
count(*)::int as "count",
sum("m"."amount")::float8 as "amount" from "money_movement" "m" join "customer" "c" on "c"."id" = "m"."customer_id" where "c"."id" = $8 and "c"."corp_id" = $9 and "c"."staff_id" = $10 group by "m"."direction", "m"."currency") t) as "totals";

-- revealPhone: POST /api/client/customer/revealPhone, statement 1 of 5
delete from "rate_limit_counter" where "rate_limit_counter"."bucket" = $1
and "rate_limit_counter"."window_start" < now() - make_interval(secs => $2);

-- revealPhone: POST /api/client/customer/revealPhone, statement 2 of 5
with slot as (select to_timestamp(floor(extract(epoch from now()) / $1) * $2) as window_start)
insert into "rate_limit_counter" as "c" ("bucket", "subject", "window_start", "hits")
select $3, $4, slot.window_start, 1 from slot
on conflict ("bucket", "subject") do update
set "hits" = case when excluded."window_start" > "c"."window_start" then 1 else "c"."hits" + 1 end,
"window_start" = greatest("c"."window_start", excluded."window_start")
returning "c"."hits" as "hits",
greatest(1, ceil(extract(epoch from ("c"."window_start" + make_interval(secs => $5) - now()))))::int as "retryAfterSeconds";

-- revealPhone: POST /api/client/customer/revealPhone, statement 3 of 5
-- updateProfile: POST /api/client/customer/updateProfile, statement 1 of 5
-- prepared
select "c"."staff_id" as "staffId" from "customer" "c" where "c"."id" = $1 and "c"."corp_id" = $2;

-- revealPhone: POST /api/client/customer/revealPhone, statement 4 of 5
select "c"."phone" as "phone" from "customer" "c" where "c"."id" = $1 and "c"."corp_id" = $2 and "c"."staff_id" = $3;

-- revealPhone: POST /api/client/customer/revealPhone, statement 5 of 5
-- updateProfile: POST /api/client/customer/updateProfile, statement 4 of 5
insert into "audit_log" ("id", "corp_id", "actor_staff_id", "action", "entity", "entity_id", "before", "after", "at") values (default, $1, $2, $3, $4, $5, $6, $7, default);

-- updateProfile: POST /api/client/customer/updateProfile, statement 2 of 5
select "c"."id"::float8 as "id",
"c"."customer_no" as "customerNo",
"c"."name_cn" as "nameCn",
"c"."name_en" as "nameEn",
"c"."gender" as "gender",
"c"."birthday"::text as "birthday",
"c"."phone" as "phone",
"c"."email" as "email",
"c"."id_doc_type" as "idDocType",
"c"."id_doc_masked" as "idDocMasked",
"c"."id_doc_expiry"::text as "idDocExpiry",
"c"."risk_level" as "riskLevel",
"c"."risk_assessed_on"::text as "riskAssessedOn",
"c"."status" as "status",
"c"."channel" as "channel",
"c"."open_date"::text as "openDate",
"c"."closed_date"::text as "closedDate",
"c"."tags" as "tags",
"c"."remark" as "remark",
"c"."version" as "version",
floor(extract(epoch from "c"."updated_at") * 1000)::float8 as "updatedAt",
"c"."total_assets_hkd"::float8 as "totalAssetsHkd",
"c"."last_trade_date"::text as "lastTradeDate",
exists (select 1 from "kyc_binding" "k" where "k"."customer_id" = "c"."id" and "k"."corp_id" = "c"."corp_id") as "kycBound",
exists (select 1 from "kyc_binding" "k" where "k"."customer_id" = "c"."id" and "k"."corp_id" = "c"."corp_id" and "k"."stale_at" is not null) as "kycStale",
coalesce((select json_agg(json_build_object('accountNo', "a"."account_no", 'type', "a"."type", 'status', "a"."status", 'openDate', "a"."open_date"::text) order by "a"."id")
from "account" "a" where "a"."customer_id" = "c"."id"), '[]'::json) as "accounts" from "customer" "c" where "c"."id" = $1 and "c"."corp_id" = $2 and "c"."staff_id" = $3 for update of c;

-- updateProfile: POST /api/client/customer/updateProfile, statement 3 of 5
update "customer" "c" set "remark" = $1, "version" = "c"."version" + 1, "updated_at" = now()
where "c"."id" = $2 and "c"."corp_id" = $3 and "c"."staff_id" = $4 and "c"."version" = $5;

-- updateProfile: POST /api/client/customer/updateProfile, statement 5 of 5
select "c"."id"::float8 as "id",
"c"."customer_no" as "customerNo",
"c"."name_cn" as "nameCn",
"c"."name_en" as "nameEn",
"c"."gender" as "gender",
"c"."birthday"::text as "birthday",
"c"."phone" as "phone",
"c"."email" as "email",
"c"."id_doc_type" as "idDocType",
"c"."id_doc_masked" as "idDocMasked",
"c"."id_doc_expiry"::text as "idDocExpiry",
"c"."risk_level" as "riskLevel",
"c"."risk_assessed_on"::text as "riskAssessedOn",
"c"."status" as "status",
"c"."channel" as "channel",
"c"."open_date"::text as "openDate",
"c"."closed_date"::text as "closedDate",
"c"."tags" as "tags",
"c"."remark" as "remark",
"c"."version" as "version",
floor(extract(epoch from "c"."updated_at") * 1000)::float8 as "updatedAt",
"c"."total_assets_hkd"::float8 as "totalAssetsHkd",
"c"."last_trade_date"::text as "lastTradeDate",
exists (select 1 from "kyc_binding" "k" where "k"."customer_id" = "c"."id" and "k"."corp_id" = "c"."corp_id") as "kycBound",
exists (select 1 from "kyc_binding" "k" where "k"."customer_id" = "c"."id" and "k"."corp_id" = "c"."corp_id" and "k"."stale_at" is not null) as "kycStale",
coalesce((select json_agg(json_build_object('accountNo', "a"."account_no", 'type', "a"."type", 'status', "a"."status", 'openDate', "a"."open_date"::text) order by "a"."id")
from "account" "a" where "a"."customer_id" = "c"."id"), '[]'::json) as "accounts" from "customer" "c" where "c"."id" = $1 and "c"."corp_id" = $2 and "c"."staff_id" = $3;
