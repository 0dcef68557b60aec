-- kycSearch (SEARCH_INDEX_MAX_ROWS=0): POST /api/client/customer/kyc/search, statement 1 of 4
-- prepared
select "s"."id"::float8 as "sessionId",
"s"."corp_id" as "corpId",
(extract(epoch from "s"."expires_at") * 1000)::float8 as "expiresAtMs",
"s"."revoked_at" is not null as "revoked",
"st"."id" as "staffId",
"st"."name" as "staffName",
"st"."wecom_user_id" as "wecomUserId",
"st"."active" as "staffActive",
"s"."binding_hash" as "bindingHash" from "auth_session" "s" join "staff" "st" on "st"."id" = "s"."staff_id"
where "s"."token_hash" = $1
limit 1;

-- kycSearch (SEARCH_INDEX_MAX_ROWS=0): POST /api/client/customer/kyc/search, statement 2 of 4
delete from "rate_limit_counter" where "rate_limit_counter"."bucket" = $1
and "rate_limit_counter"."window_start" < now() - make_interval(secs => $2);

-- kycSearch (SEARCH_INDEX_MAX_ROWS=0): POST /api/client/customer/kyc/search, statement 3 of 4
with slot as (select to_timestamp(floor(extract(epoch from now()) / $1) * $2) as window_start)
insert into "rate_limit_counter" as "c" ("bucket", "subject", "window_start", "hits")
select $3, $4, slot.window_start, 1 from slot
on conflict ("bucket", "subject") do update
set "hits" = case when excluded."window_start" > "c"."window_start" then 1 else "c"."hits" + 1 end,
"window_start" = greatest("c"."window_start", excluded."window_start")
returning "c"."hits" as "hits",
greatest(1, ceil(extract(epoch from ("c"."window_start" + make_interval(secs => $5) - now()))))::int as "retryAfterSeconds";

-- kycSearch (SEARCH_INDEX_MAX_ROWS=0): POST /api/client/customer/kyc/search, statement 4 of 4
select (select coalesce(json_agg(t), '[]'::json) from (select "c"."id"::float8 as "customerId",
"c"."customer_no" as "customerNo",
"c"."name_cn" as "nameCn",
"c"."name_en" as "nameEn",
"c"."phone" as "phone",
"c"."id_doc_masked" as "idDoc",
"c"."status" as "status",
(select "k"."external_user_id" from "kyc_binding" "k" where "k"."customer_id" = "c"."id" and "k"."corp_id" = "c"."corp_id") as "boundExternalUserId",
array(select "a"."account_no" from "account" "a" where "a"."customer_id" = "c"."id" order by "a"."account_no") as "accountNos" from (select "c"."id" from "customer" "c" where "c"."staff_id" = $1 and (("c"."name_en" || '') ilike $2 or (("c"."search_terms" || '') like $3))
order by (case when (("c"."name_en" ilike $4 or "c"."name_en" ilike $5) or ("c"."search_terms" like $6)) then 1 else 2 end), "c"."total_assets_hkd" desc, "c"."id" asc limit $7 offset $8) page
join "customer" "c" on "c"."id" = page.id and "c"."corp_id" = $9
order by (case when (("c"."name_en" ilike $10 or "c"."name_en" ilike $11) or ("c"."search_terms" like $12)) then 1 else 2 end), "c"."total_assets_hkd" desc, "c"."id" asc) t) as "rows", (select coalesce(json_agg(t), '[]'::json) from (select count(*)::int as "total" from "customer" "c" where "c"."corp_id" = $13 and "c"."staff_id" = $14 and (("c"."name_en" || '') ilike $15 or (("c"."search_terms" || '') like $16))) t) as "total";

-- searchCustomers (SEARCH_INDEX_MAX_ROWS=0): POST /api/client/customer/manage/search
select (select coalesce(json_agg(t), '[]'::json) from (select "c"."id"::float8 as "id",
"c"."customer_no" as "customerNo",
"c"."name_cn" as "nameCn",
"c"."name_en" as "nameEn",
"c"."phone" as "phone",
"c"."phone_digits" as "phoneDigits",
"c"."id_doc_masked" as "idDocMasked",
"c"."id_doc_last4" as "idDocLast4",
array(select "a"."account_no" from "account" "a" where "a"."customer_id" = "c"."id" order by "a"."id") as "accountNos",
"c"."channel" as "channel",
"c"."status" as "status",
"c"."risk_level" as "riskLevel",
"c"."tags" as "tags",
exists (select 1 from "kyc_binding" "k" where "k"."customer_id" = "c"."id" and "k"."corp_id" = "c"."corp_id") as "kycBound",
"c"."total_assets_hkd"::float8 as "totalAssetsHkd",
"c"."open_date"::text as "openDate",
"c"."last_trade_date"::text as "lastTradeDate" from (select "c"."id" from "customer" "c" where "c"."staff_id" = $1
order by "c"."total_assets_hkd" desc, "c"."id" asc limit $2 offset $3) page
join "customer" "c" on "c"."id" = page.id and "c"."corp_id" = $4
order by "c"."total_assets_hkd" desc, "c"."id" asc) t) as "rows", (select coalesce(json_agg(t), '[]'::json) from (select coalesce(sum("b"."clients"), 0)::int as "total" from "staff_book_summary" "b" where "b"."staff_id" = $5 and "b"."corp_id" = $6) t) as "total";

-- statCustomers (SEARCH_INDEX_MAX_ROWS=0): POST /api/client/customer/manage/stat
select "b"."channel" as "channel",
sum("b"."clients")::int as "clients",
sum("b"."total_assets_hkd")::text as "totalAssetsHkd",
coalesce(sum("b"."clients") filter (where "b"."status" = 'active'), 0)::int as "active",
(select count(*) from "customer" "c" where "c"."corp_id" = $1 and "c"."staff_id" = $2 and "c"."channel" = "b"."channel"
and "c"."open_date" >= (select date_trunc('month', now() at time zone 'Asia/Hong_Kong')::date))::int as "newThisMonth" from "staff_book_summary" "b" where "b"."staff_id" = $3 and "b"."corp_id" = $4
group by "b"."channel" having sum("b"."clients") > 0 order by clients desc, "b"."channel";
