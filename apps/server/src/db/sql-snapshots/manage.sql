-- getChannel: GET /api/client/customer/manage/getChannel
select "b"."channel" as "channel",
sum("b"."clients")::int as "clients" from "staff_book_summary" "b" where "b"."staff_id" = $1 and "b"."corp_id" = $2
group by "b"."channel" having sum("b"."clients") > 0 order by "clients" desc, "b"."channel";

-- searchCustomers: POST /api/client/customer/manage/search, statement 1 of 3
-- searchCustomers: POST /api/client/customer/manage/search, statement 3 of 3
-- statCustomers: POST /api/client/customer/manage/stat
-- prepared
select coalesce((select "v"."version" from "staff_book_version" "v" where "v"."corp_id" = $1 and "v"."staff_id" = $2), 0)::text as "version",
(select date_trunc('month', now() at time zone 'Asia/Hong_Kong')::date)::text as "month";

-- searchCustomers: POST /api/client/customer/manage/search, statement 2 of 3
select coalesce((select "v"."version" from "staff_book_version" "v" where "v"."corp_id" = $1 and "v"."staff_id" = $2), 0)::text as "version",
(select count(distinct "ch"."version") from "staff_book_change" "ch" where "ch"."corp_id" = $3 and "ch"."staff_id" = $4 and "ch"."version" > $5::bigint )::float8 as "versions",
exists (select 1 from "staff_book_change" "ch" where "ch"."corp_id" = $6 and "ch"."staff_id" = $7 and "ch"."version" > $8::bigint and "ch"."customer_id" is null) as "wholeBook",
array(select distinct "ch"."customer_id"::float8 from "staff_book_change" "ch" where "ch"."corp_id" = $9 and "ch"."staff_id" = $10 and "ch"."version" > $11::bigint and "ch"."customer_id" is not null limit $12) as "changedIds",
(select coalesce(json_agg(t), '[]'::json) from (select "c"."id"::float8 as "id",
"c"."channel" as "channel",
"c"."status" as "status",
"c"."name_cn" as "nameCn",
"c"."name_en" as "nameEn",
"c"."search_terms" as "searchTerms",
"c"."phone_digits" as "phoneDigits",
"c"."id_doc_last4" as "idDocLast4",
("c"."total_assets_hkd" * 100)::float8 as "assetCents",
"c"."open_date"::text as "openDate",
"c"."last_trade_date"::text as "lastTradeDate",
"c"."held_markets" as "heldMarkets",
exists (select 1 from "kyc_binding" "k" where "k"."customer_id" = "c"."id" and "k"."corp_id" = "c"."corp_id") as "kycBound",
array(select "a"."account_no" from "account" "a" where "a"."customer_id" = "c"."id" order by "a"."id") as "accountNos",
"c"."customer_no" as "customerNo",
"c"."phone" as "phone",
"c"."id_doc_masked" as "idDocMasked",
"c"."risk_level" as "riskLevel",
"c"."tags" as "tags" from "customer" "c"
where "c"."corp_id" = $13 and "c"."staff_id" = $14
and "c"."id" in (select distinct "ch"."customer_id" from "staff_book_change" "ch" where "ch"."corp_id" = $15 and "ch"."staff_id" = $16 and "ch"."version" > $17::bigint and "ch"."customer_id" is not null limit $18)) t) as "rows";
