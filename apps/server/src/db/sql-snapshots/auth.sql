-- getCorpConfig: GET /api/auth/corpConfig: no statement

-- loginQywx: GET /api/auth/login/qywx, statement 1 of 2
-- resumeSession: POST /api/auth/session/resume, statement 3 of 6
-- resumeSession: POST /api/auth/session/resume, statement 5 of 6
delete from "rate_limit_counter" where "rate_limit_counter"."bucket" = $1
and "rate_limit_counter"."window_start" < now() - make_interval(secs => $2);

-- loginQywx: GET /api/auth/login/qywx, statement 2 of 2
-- resumeSession: POST /api/auth/session/resume, statement 4 of 6
-- resumeSession: POST /api/auth/session/resume, statement 6 of 6
-- startSignIn: POST /api/auth/login/start, statement 1 of 3
with slot as (select to_timestamp(floor(extract(epoch from now()) / $1) * $2) as window_start)
insert into "rate_limit_counter" as "c" ("bucket", "subject", "window_start", "hits")
select $3, $4, slot.window_start, 1 from slot
on conflict ("bucket", "subject") do update
set "hits" = case when excluded."window_start" > "c"."window_start" then 1 else "c"."hits" + 1 end,
"window_start" = greatest("c"."window_start", excluded."window_start")
returning "c"."hits" as "hits",
greatest(1, ceil(extract(epoch from ("c"."window_start" + make_interval(secs => $5) - now()))))::int as "retryAfterSeconds";

-- resumeSession: POST /api/auth/session/resume, statement 1 of 6
-- signOut: POST /api/auth/logout, statement 1 of 2
-- signOutEverywhere: POST /api/auth/logoutEverywhere, statement 1 of 2
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

-- resumeSession: POST /api/auth/session/resume, statement 2 of 6
select "id", "corp_id", "wecom_user_id", "name", "email", "mobile", "position", "channel", "online_staff", "bd", "heco", "default_currency", "mot_fold", "min_cash_io", "mot_push_opt_out", "language", "active", "created_at", "updated_at" from "staff" where "staff"."id" = $1 limit $2;

-- signOut: POST /api/auth/logout, statement 2 of 2
update "auth_session" set "revoked_at" = now() where ("auth_session"."revoked_at" is null and ("auth_session"."binding_hash" = $1 or "auth_session"."id" = $2)) returning "id";

-- signOutEverywhere: POST /api/auth/logoutEverywhere, statement 2 of 2
update "auth_session" set "revoked_at" = now() where ("auth_session"."staff_id" = $1 and "auth_session"."corp_id" = $2 and "auth_session"."revoked_at" is null) returning "id";

-- startSignIn: POST /api/auth/login/start, statement 2 of 3
delete from "sign_in_attempt" where "sign_in_attempt"."expires_at" < now();

-- startSignIn: POST /api/auth/login/start, statement 3 of 3
insert into "sign_in_attempt" ("state_hash", "corp_id", "agent_code", "created_at", "expires_at") values ($1, $2, $3, default, $4);
