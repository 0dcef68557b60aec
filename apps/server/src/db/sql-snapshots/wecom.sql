-- getJsSdkSign: POST /api/aggregation/qywx/getJsSdkSign, statement 1 of 10
-- getJsSdkSign: POST /api/aggregation/qywx/getJsSdkSign, statement 2 of 10
-- getJsSdkSign: POST /api/aggregation/qywx/getJsSdkSign, statement 3 of 10
-- getJsSdkSign: POST /api/aggregation/qywx/getJsSdkSign, statement 4 of 10
-- getJsSdkSign: POST /api/aggregation/qywx/getJsSdkSign, statement 6 of 10
-- getJsSdkSign: POST /api/aggregation/qywx/getJsSdkSign, statement 9 of 10
select "value" from "wecom_credential" where ("wecom_credential"."corp_id" = $1 and "wecom_credential"."agent_code" = $2 and "wecom_credential"."kind" = $3 and "wecom_credential"."expires_at" > $4) limit $5;

-- getJsSdkSign: POST /api/aggregation/qywx/getJsSdkSign, statement 5 of 10
-- getJsSdkSign: POST /api/aggregation/qywx/getJsSdkSign, statement 8 of 10
select pg_advisory_xact_lock(hashtext($1));

-- getJsSdkSign: POST /api/aggregation/qywx/getJsSdkSign, statement 7 of 10
-- getJsSdkSign: POST /api/aggregation/qywx/getJsSdkSign, statement 10 of 10
insert into "wecom_credential" ("corp_id", "agent_code", "kind", "value", "expires_at", "fetched_at") values ($1, $2, $3, $4, $5, $6) on conflict ("corp_id","agent_code","kind") do update set "value" = $7, "expires_at" = $8, "fetched_at" = $9;
