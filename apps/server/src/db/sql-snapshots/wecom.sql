-- getJsSdkSign: POST /api/aggregation/qywx/getJsSdkSign
select "value" from "wecom_credential" where ("wecom_credential"."corp_id" = $1 and "wecom_credential"."agent_code" = $2 and "wecom_credential"."kind" = $3 and "wecom_credential"."expires_at" > $4) limit $5;
select "value" from "wecom_credential" where ("wecom_credential"."corp_id" = $1 and "wecom_credential"."agent_code" = $2 and "wecom_credential"."kind" = $3 and "wecom_credential"."expires_at" > $4) limit $5;
select "value" from "wecom_credential" where ("wecom_credential"."corp_id" = $1 and "wecom_credential"."agent_code" = $2 and "wecom_credential"."kind" = $3 and "wecom_credential"."expires_at" > $4) limit $5;
select "value" from "wecom_credential" where ("wecom_credential"."corp_id" = $1 and "wecom_credential"."agent_code" = $2 and "wecom_credential"."kind" = $3 and "wecom_credential"."expires_at" > $4) limit $5;
select pg_advisory_xact_lock(hashtext($1));
select "value" from "wecom_credential" where ("wecom_credential"."corp_id" = $1 and "wecom_credential"."agent_code" = $2 and "wecom_credential"."kind" = $3 and "wecom_credential"."expires_at" > $4) limit $5;
insert into "wecom_credential" ("corp_id", "agent_code", "kind", "value", "expires_at", "fetched_at") values ($1, $2, $3, $4, $5, $6) on conflict ("corp_id","agent_code","kind") do update set "value" = $7, "expires_at" = $8, "fetched_at" = $9;
select pg_advisory_xact_lock(hashtext($1));
select "value" from "wecom_credential" where ("wecom_credential"."corp_id" = $1 and "wecom_credential"."agent_code" = $2 and "wecom_credential"."kind" = $3 and "wecom_credential"."expires_at" > $4) limit $5;
insert into "wecom_credential" ("corp_id", "agent_code", "kind", "value", "expires_at", "fetched_at") values ($1, $2, $3, $4, $5, $6) on conflict ("corp_id","agent_code","kind") do update set "value" = $7, "expires_at" = $8, "fetched_at" = $9;
