-- deleteSavedFilter: POST /api/client/customer/manage/deleteFilter
delete from "staff_saved_filter" where ("staff_saved_filter"."id" = $1 and "staff_saved_filter"."staff_id" = $2) returning "id";

-- forgetRecentSearches: POST /api/client/customer/manage/forgetSearches, statement 1 of 2
delete from "staff_recent" where ("staff_recent"."staff_id" = $1 and "staff_recent"."kind" = $2 and "staff_recent"."value" = $3);

-- forgetRecentSearches: POST /api/client/customer/manage/forgetSearches, statement 2 of 2
-- getShortcuts: GET /api/client/customer/manage/shortcuts, statement 3 of 4
select "r"."value" as value from "staff_recent" "r" where "r"."staff_id" = $1 and "r"."kind" = 'search'
order by "r"."used_at" desc limit $2;

-- getShortcuts: GET /api/client/customer/manage/shortcuts, statement 1 of 4
-- setClientPin: POST /api/client/customer/manage/pin, statement 4 of 6
-- setClientPin: POST /api/client/customer/manage/pin, statement 6 of 6
select "c"."id"::float8 as "customerId",
"c"."customer_no" as "customerNo",
"c"."name_cn" as "nameCn",
"c"."name_en" as "nameEn",
floor(extract(epoch from "p"."pinned_at") * 1000)::float8 as "at" from "staff_pinned_client" "p" join "customer" "c" on "c"."id" = "p"."customer_id" and "c"."corp_id" = $1 and "c"."staff_id" = $2
where "p"."staff_id" = $3 order by "p"."pinned_at" desc, "c"."id";

-- getShortcuts: GET /api/client/customer/manage/shortcuts, statement 2 of 4
select "c"."id"::float8 as "customerId",
"c"."customer_no" as "customerNo",
"c"."name_cn" as "nameCn",
"c"."name_en" as "nameEn",
floor(extract(epoch from "r"."used_at") * 1000)::float8 as "at" from "staff_recent" "r" join "customer" "c" on "c"."id" = "r"."value"::bigint and "c"."corp_id" = $1 and "c"."staff_id" = $2
where "r"."staff_id" = $3 and "r"."kind" = 'client' order by "r"."used_at" desc limit $4;

-- getShortcuts: GET /api/client/customer/manage/shortcuts, statement 4 of 4
-- saveFilter: POST /api/client/customer/manage/saveFilter, statement 2 of 4
select "f"."id"::float8 as "filterId",
"f"."name" as "name",
"f"."filters" as "filters",
floor(extract(epoch from "f"."updated_at") * 1000)::float8 as "updatedAt" from "staff_saved_filter" "f" where "f"."staff_id" = $1  order by "f"."name", "f"."id";

-- recordClientOpened: POST /api/client/customer/manage/opened, statement 1 of 6
-- setClientPin: POST /api/client/customer/manage/pin, statement 1 of 6
select "c"."staff_id" as "staffId" from "customer" "c" where "c"."corp_id" = $1 and "c"."id" = $2;

-- recordClientOpened: POST /api/client/customer/manage/opened, statement 2 of 6
-- saveFilter: POST /api/client/customer/manage/saveFilter, statement 1 of 4
-- setClientPin: POST /api/client/customer/manage/pin, statement 2 of 6
select 1 from "staff" where "staff"."id" = $1 for update;

-- recordClientOpened: POST /api/client/customer/manage/opened, statement 3 of 6
-- recordClientOpened: POST /api/client/customer/manage/opened, statement 5 of 6
insert into "staff_recent" ("corp_id", "staff_id", "kind", "value", "used_at") values ($1, $2, $3, $4, default) on conflict ("staff_id","kind","value") do update set "used_at" = now();

-- recordClientOpened: POST /api/client/customer/manage/opened, statement 4 of 6
-- recordClientOpened: POST /api/client/customer/manage/opened, statement 6 of 6
delete from "staff_recent" where "staff_recent"."staff_id" = $1 and "staff_recent"."kind" = $2
and "staff_recent"."value" not in (
select "r"."value" from "staff_recent" "r" where "r"."staff_id" = $3 and "r"."kind" = $4
order by "r"."used_at" desc limit $5);

-- saveFilter: POST /api/client/customer/manage/saveFilter, statement 3 of 4
update "staff_saved_filter" set "name" = $1, "filters" = $2, "updated_at" = now() where ("staff_saved_filter"."id" = $3 and "staff_saved_filter"."staff_id" = $4);

-- saveFilter: POST /api/client/customer/manage/saveFilter, statement 4 of 4
select "f"."id"::float8 as "filterId",
"f"."name" as "name",
"f"."filters" as "filters",
floor(extract(epoch from "f"."updated_at") * 1000)::float8 as "updatedAt" from "staff_saved_filter" "f" where "f"."staff_id" = $1 and "f"."id" = $2 order by "f"."name", "f"."id";

-- setClientPin: POST /api/client/customer/manage/pin, statement 3 of 6
select count(*)::float8 as count from "staff_pinned_client" where "staff_pinned_client"."staff_id" = $1
and "staff_pinned_client"."customer_id" = $2;

-- setClientPin: POST /api/client/customer/manage/pin, statement 5 of 6
insert into "staff_pinned_client" ("corp_id", "staff_id", "customer_id", "pinned_at") values ($1, $2, $3, default) on conflict do nothing;
