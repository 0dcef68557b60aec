-- getChannel: GET /api/client/customer/manage/getChannel
select "b"."channel" as "channel",
sum("b"."clients")::int as "clients" from "staff_book_summary" "b" where "b"."staff_id" = $1 and "b"."corp_id" = $2
group by "b"."channel" having sum("b"."clients") > 0 order by "clients" desc, "b"."channel";

-- searchCustomers: POST /api/client/customer/manage/search
-- prepared
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
"c"."last_trade_date"::text as "lastTradeDate" from (select "c"."id" from "customer" "c" where "c"."staff_id" = $1 order by "c"."total_assets_hkd" desc, "c"."id" asc limit 20 offset 0) page
join "customer" "c" on "c"."id" = page.id and "c"."corp_id" = $2
order by "c"."total_assets_hkd" desc, "c"."id" asc) t) as "rows", (select coalesce(json_agg(t), '[]'::json) from (select coalesce((select "v"."version" from "staff_book_version" "v" where "v"."corp_id" = $3 and "v"."staff_id" = $4), 0)::text as "version",
(select coalesce(sum("b"."clients"), 0) from "staff_book_summary" "b" where "b"."staff_id" = $5 and "b"."corp_id" = $6)::int as "total" ) t) as "book";

-- statCustomers: POST /api/client/customer/manage/stat, statement 1 of 2
select "b"."channel" as "channel",
sum("b"."clients")::int as "clients",
sum("b"."total_assets_hkd")::text as "totalAssetsHkd",
coalesce(sum("b"."clients") filter (where "b"."status" = 'active'), 0)::int as "active" from "staff_book_summary" "b" where "b"."staff_id" = $1 and "b"."corp_id" = $2
group by "b"."channel" having sum("b"."clients") > 0 order by clients desc, "b"."channel";

-- statCustomers: POST /api/client/customer/manage/stat, statement 2 of 2
select "c"."channel" as "channel",
count(*)::int as "newThisMonth" from "customer" "c" where "c"."corp_id" = $1 and "c"."staff_id" = $2 and "c"."open_date" >= (select date_trunc('month', now() at time zone 'Asia/Hong_Kong')::date) group by "c"."channel";
