-- hasKyc: GET /api/client/customer/kyc/hasKyc, statement 1 of 2
-- kycBind: POST /api/client/customer/kyc/bind, statement 3 of 6
-- kycUnbind: POST /api/client/customer/kyc/unbind, statement 1 of 3
select "kyc_binding"."id", "kyc_binding"."corp_id", "kyc_binding"."external_user_id", "kyc_binding"."customer_id", "kyc_binding"."bound_by_staff_id", "kyc_binding"."bound_at", "kyc_binding"."stale_at", "kyc_binding"."stale_reason", "kyc_binding"."contact_changed_at", "customer"."staff_id", "customer"."name_cn", "customer"."name_en", "customer"."customer_no", "customer"."phone" from "kyc_binding" inner join "customer" on "customer"."id" = "kyc_binding"."customer_id" where ("kyc_binding"."corp_id" = $1 and "kyc_binding"."external_user_id" = $2) limit $3;

-- hasKyc: GET /api/client/customer/kyc/hasKyc, statement 2 of 2
-- kycBind: POST /api/client/customer/kyc/bind, statement 2 of 6
select "value" from "wecom_credential" where ("wecom_credential"."corp_id" = $1 and "wecom_credential"."agent_code" = $2 and "wecom_credential"."kind" = $3 and "wecom_credential"."expires_at" > $4) limit $5;

-- kycBind: POST /api/client/customer/kyc/bind, statement 1 of 6
select "id", "staff_id", "name_cn", "name_en", "customer_no", "phone" from "customer" where ("customer"."corp_id" = $1 and "customer"."id" = $2) limit $3;

-- kycBind: POST /api/client/customer/kyc/bind, statement 4 of 6
select "id", "corp_id", "external_user_id", "customer_id", "bound_by_staff_id", "bound_at", "stale_at", "stale_reason", "contact_changed_at" from "kyc_binding" where ("kyc_binding"."corp_id" = $1 and "kyc_binding"."customer_id" = $2) limit $3;

-- kycBind: POST /api/client/customer/kyc/bind, statement 5 of 6
insert into "kyc_binding" ("id", "corp_id", "external_user_id", "customer_id", "bound_by_staff_id", "bound_at", "stale_at", "stale_reason", "contact_changed_at") values (default, $1, $2, $3, $4, default, default, default, default) returning "id", "corp_id", "external_user_id", "customer_id", "bound_by_staff_id", "bound_at", "stale_at", "stale_reason", "contact_changed_at";

-- kycBind: POST /api/client/customer/kyc/bind, statement 6 of 6
-- kycUnbind: POST /api/client/customer/kyc/unbind, statement 3 of 3
insert into "audit_log" ("id", "corp_id", "actor_staff_id", "action", "entity", "entity_id", "before", "after", "at") values (default, $1, $2, $3, $4, $5, $6, $7, default);

-- kycSearch: POST /api/client/customer/kyc/search, statement 1 of 5
delete from "rate_limit_counter" where "rate_limit_counter"."bucket" = $1
and "rate_limit_counter"."window_start" < now() - make_interval(secs => $2);

-- kycSearch: POST /api/client/customer/kyc/search, statement 2 of 5
with slot as (select to_timestamp(floor(extract(epoch from now()) / $1) * $2) as window_start)
insert into "rate_limit_counter" as "c" ("bucket", "subject", "window_start", "hits")
select $3, $4, slot.window_start, 1 from slot
on conflict ("bucket", "subject") do update
set "hits" = case when excluded."window_start" > "c"."window_start" then 1 else "c"."hits" + 1 end,
"window_start" = greatest("c"."window_start", excluded."window_start")
returning "c"."hits" as "hits",
greatest(1, ceil(extract(epoch from ("c"."window_start" + make_interval(secs => $5) - now()))))::int as "retryAfterSeconds";

-- kycSearch: POST /api/client/customer/kyc/search, statement 3 of 5
select (select coalesce(sum("b"."clients"), 0) from "staff_book_summary" "b" where "b"."staff_id" = $1 and "b"."corp_id" = $2)::float8 as "clients";

-- kycSearch: POST /api/client/customer/kyc/search, statement 4 of 5
select coalesce((select "v"."version" from "staff_book_version" "v" where "v"."corp_id" = $1 and "v"."staff_id" = $2), 0)::text as "version",
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
where "c"."corp_id" = $3 and "c"."staff_id" = $4) t) as "rows";

-- kycSearch: POST /api/client/customer/kyc/search, statement 5 of 5
-- prepared
select (select coalesce(json_agg(t), '[]'::json) from (select "c"."id"::float8 as "customerId",
"c"."customer_no" as "customerNo",
"c"."name_cn" as "nameCn",
"c"."name_en" as "nameEn",
"c"."phone" as "phone",
"c"."id_doc_masked" as "idDoc",
"c"."status" as "status",
(select "k"."external_user_id" from "kyc_binding" "k" where "k"."customer_id" = "c"."id" and "k"."corp_id" = "c"."corp_id") as "boundExternalUserId",
array(select "a"."account_no" from "account" "a" where "a"."customer_id" = "c"."id" order by "a"."account_no") as "accountNos" from unnest($1::bigint[]) with ordinality as page(id, position)
join "customer" "c" on "c"."id" = page.id and "c"."corp_id" = $2
order by page.position) t) as "rows", (select coalesce(json_agg(t), '[]'::json) from (select coalesce((select "v"."version" from "staff_book_version" "v" where "v"."corp_id" = $3 and "v"."staff_id" = $4), 0)::text as "version",
(select date_trunc('month', now() at time zone 'Asia/Hong_Kong')::date)::text as "month" ) t) as "book";

-- kycUnbind: POST /api/client/customer/kyc/unbind, statement 2 of 3
delete from "kyc_binding" where "kyc_binding"."id" = $1 returning "id";
