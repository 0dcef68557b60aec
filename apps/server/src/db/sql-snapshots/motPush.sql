-- getMotPushSetting: POST /api/mot/todoEventRule/getPush
select mot_push_opt_out as "optOut" from staff where id = $1;

-- setMotPushSetting: POST /api/mot/todoEventRule/setPush, statement 1 of 3
select mot_push_opt_out as "optOut" from staff where id = $1 for update;

-- setMotPushSetting: POST /api/mot/todoEventRule/setPush, statement 2 of 3
update staff set mot_push_opt_out = $1, updated_at = now() where id = $2;

-- setMotPushSetting: POST /api/mot/todoEventRule/setPush, statement 3 of 3
insert into "audit_log" ("id", "corp_id", "actor_staff_id", "action", "entity", "entity_id", "before", "after", "at") values (default, $1, $2, $3, $4, $5, $6, $7, default);
