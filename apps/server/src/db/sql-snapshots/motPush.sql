-- getMotPushSetting: POST /api/mot/todoEventRule/getPush
select "mot_push_opt_out" from "staff" where "staff"."id" = $1;

-- setMotPushSetting: POST /api/mot/todoEventRule/setPush, statement 1 of 4
select "mot_push_opt_out" from "staff" where "staff"."id" = $1 for update;

-- setMotPushSetting: POST /api/mot/todoEventRule/setPush, statement 2 of 4
update "staff" set "language" = $1, "updated_at" = $2 where "staff"."id" = $3;

-- setMotPushSetting: POST /api/mot/todoEventRule/setPush, statement 3 of 4
update "staff" set "mot_push_opt_out" = $1, "updated_at" = $2 where "staff"."id" = $3;

-- setMotPushSetting: POST /api/mot/todoEventRule/setPush, statement 4 of 4
insert into "audit_log" ("id", "corp_id", "actor_staff_id", "action", "entity", "entity_id", "before", "after", "at") values (default, $1, $2, $3, $4, $5, $6, $7, default);

-- MOT push: one card built and sent (dispatchMotPushes, push-dispatcher.ts), statement 1 of 5
-- MOT push: one card built and sent (dispatchMotPushes, push-dispatcher.ts), statement 5 of 5
with due as (
select "mot_push"."id" from "mot_push"
where ("mot_push"."status" in ('pending', 'retry') and "mot_push"."not_before" <= $1::timestamptz)
or ("mot_push"."status" = 'sending' and "mot_push"."lease_until" < $2::timestamptz)
order by "mot_push"."not_before", "mot_push"."id"
limit $3
for update skip locked
)
update "mot_push" "p"
set "status" = 'sending', "claimed_by" = $4,
"lease_until" = $5::timestamptz + $6::interval,
-- Found still sending: its replica died mid-send, so WeCom may have it.
"maybe_delivered" = "p"."maybe_delivered" or "p"."status" = 'sending'
from due, "staff" "s"
where "p"."id" = due.id and "s"."id" = "p"."staff_id"
returning "p"."id"::float8 as "id",
"p"."corp_id" as "corpId",
"p"."staff_id" as "staffId",
"s"."wecom_user_id" as "userid",
"s"."language" as "language",
"p"."body" as "body",
"p"."attempts" as "attempts",
floor(extract(epoch from "p"."first_attempt_at") * 1000)::float8 as "firstAttemptMs",
"p"."maybe_delivered" as "maybeDelivered",
(select floor(extract(epoch from max("q"."sent_at")) * 1000)::float8 from "mot_push" "q"
where "q"."staff_id" = "p"."staff_id" and "q"."status" = 'sent') as "lastSentMs";

-- MOT push: one card built and sent (dispatchMotPushes, push-dispatcher.ts), statement 2 of 5
select "e"."id"::float8 as "eventId",
"e"."rule" as "rule",
"c"."name_cn" as "customerName",
"e"."due_date"::text as "dueDate",
count(*) over ()::int as "total" from "mot_push_event" "pe"
join "mot_event" "e" on "e"."id" = "pe"."event_id"
join "customer" "c" on "c"."id" = "e"."customer_id"
cross join lateral (select max("r"."served_at") as last_served from "contact_record" "r"
where "r"."customer_id" = "e"."customer_id" and "r"."superseded_by" is null) lc
where "pe"."push_id" = $1 and "pe"."push_id" > 0 and "e"."status" = 'new'
order by (coalesce(($2::jsonb ->> "e"."rule")::float8, 1) * ($3::float8[])[greatest(width_bucket("c"."total_assets_hkd"::float8, $4::float8[]), 1)] * (1 + $5::float8 * least(greatest($6::date - "e"."due_date", 0), $7::int)) * (1 + $8::float8 * least(greatest(coalesce(($9::date - (lc.last_served at time zone 'Asia/Hong_Kong')::date), $10::int), 0), $11::int))) desc, "e"."due_date", "e"."id"
limit $12;

-- MOT push: one card built and sent (dispatchMotPushes, push-dispatcher.ts), statement 3 of 5
update "mot_push" set "body" = $1, "attempts" = "mot_push"."attempts" + 1, "first_attempt_at" = $2 where ("mot_push"."id" = $3 and "mot_push"."status" = $4);

-- MOT push: one card built and sent (dispatchMotPushes, push-dispatcher.ts), statement 4 of 5
update "mot_push" set "status" = $1, "lease_until" = $2, "last_error" = $3, "msgid" = $4, "sent_at" = $5 where ("mot_push"."id" = $6 and "mot_push"."status" = $7);
