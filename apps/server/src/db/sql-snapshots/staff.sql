-- configureDefaultCcy: GET /api/client/staff/asset/configureDefaultCcy
update "staff" set "default_currency" = $1, "updated_at" = $2 where "staff"."id" = $3;

-- getDefaultCcy: GET /api/client/staff/asset/getDefaultCcy
select "default_currency", "mot_fold" from "staff" where "staff"."id" = $1 limit $2;
