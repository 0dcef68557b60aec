-- addContactRecord: POST /api/contact/record/add, statement 1 of 5
-- exportContactRecords: GET /api/contact/records/export, statement 1 of 3
-- listContactRecords: GET /api/contact/records, statement 1 of 2
-- reviseContactRecord: POST /api/contact/record/revise, statement 2 of 8
-- prepared
select "c"."id"::float8 as "customerId",
"c"."customer_no" as "customerNo",
"c"."staff_id" as "staffId",
"c"."open_date"::text as "openDate" from "customer" "c" where "c"."corp_id" = $1 and "c"."id" = $2;

-- addContactRecord: POST /api/contact/record/add, statement 2 of 5
select nextval('contact_record_id_seq')::float8 as id;

-- addContactRecord: POST /api/contact/record/add, statement 3 of 5
insert into "contact_record" ("id", "thread_id", "version", "corp_id", "customer_id", "staff_id", "channel", "purpose", "note", "outcome", "next_step", "next_step_date", "suitability", "served_at", "follows_record_id", "correction_reason", "locks_at", "request_id")
values ($1, $2, $3, $4, $5, $6,
$7, $8, $9, $10, $11, $12::date,
$13, to_timestamp($14::float8 / 1000), $15, $16,
now() + $17::float8 * interval '1 second', $18::uuid)
on conflict (staff_id, request_id) where request_id is not null do nothing
returning id::float8 as id;

-- addContactRecord: POST /api/contact/record/add, statement 4 of 5
-- exportContactRecords: GET /api/contact/records/export, statement 3 of 3
-- reviseContactRecord: POST /api/contact/record/revise, statement 7 of 8
insert into "audit_log" ("id", "corp_id", "actor_staff_id", "action", "entity", "entity_id", "before", "after", "at") values (default, $1, $2, $3, $4, $5, $6, $7, default);

-- addContactRecord: POST /api/contact/record/add, statement 5 of 5
-- reviseContactRecord: POST /api/contact/record/revise, statement 8 of 8
select "r"."id"::float8 as "recordId",
"r"."thread_id"::float8 as "threadId",
"r"."version" as "version",
"r"."superseded_by" is null as "latest",
"r"."customer_id"::float8 as "customerId",
coalesce(nullif("c"."name_cn", ''), "c"."name_en") as "customerName",
"c"."customer_no" as "customerNo",
"r"."staff_id" as "staffId",
"s"."name" as "staffName",
"r"."channel" as "channel",
"r"."purpose" as "purpose",
"r"."note" as "note",
"r"."outcome" as "outcome",
"r"."next_step" as "nextStep",
"r"."next_step_date"::text as "nextStepDate",
"r"."suitability" as "suitability",
(select coalesce(jsonb_agg(jsonb_build_object('eventId', "e"."id"::float8, 'rule', "e"."rule", 'dueDate', "e"."due_date"::text) order by "e"."id"), '[]'::jsonb)
from "contact_record_event" "l" join "mot_event" "e" on "e"."id" = "l"."mot_event_id" where "l"."record_id" = "r"."thread_id") as "events",
"r"."follows_record_id"::float8 as "followsRecordId",
(select "f"."id"::float8 from "mot_event" "f"
where "f"."rule" = 'follow_up' and "f"."customer_id" = "r"."customer_id" and "f"."fact_key" = "r"."thread_id"::text) as "followUpEventId",
floor(extract(epoch from "r"."served_at") * 1000)::float8 as "servedAt",
floor(extract(epoch from "r"."created_at") * 1000)::float8 as "createdAt",
floor(extract(epoch from "r"."locks_at") * 1000)::float8 as "locksAt",
("r"."locks_at" <= now() or "r"."superseded_by" is not null) as "locked",
"r"."correction_reason" as "correctionReason",
"r"."edits" as "edits",
floor(extract(epoch from "r"."superseded_at") * 1000)::float8 as "supersededAt" from "contact_record" "r" join "customer" "c" on "c"."id" = "r"."customer_id" join "staff" "s" on "s"."id" = "r"."staff_id" where "r"."id" = $1;

-- exportContactRecords: GET /api/contact/records/export, statement 2 of 3
select "r"."id"::float8 as "recordId",
"r"."thread_id"::float8 as "threadId",
"r"."version" as "version",
"r"."superseded_by" is null as "latest",
"r"."customer_id"::float8 as "customerId",
coalesce(nullif("c"."name_cn", ''), "c"."name_en") as "customerName",
"c"."customer_no" as "customerNo",
"r"."staff_id" as "staffId",
"s"."name" as "staffName",
"r"."channel" as "channel",
"r"."purpose" as "purpose",
"r"."note" as "note",
"r"."outcome" as "outcome",
"r"."next_step" as "nextStep",
"r"."next_step_date"::text as "nextStepDate",
"r"."suitability" as "suitability",
(select coalesce(jsonb_agg(jsonb_build_object('eventId', "e"."id"::float8, 'rule', "e"."rule", 'dueDate', "e"."due_date"::text) order by "e"."id"), '[]'::jsonb)
from "contact_record_event" "l" join "mot_event" "e" on "e"."id" = "l"."mot_event_id" where "l"."record_id" = "r"."thread_id") as "events",
"r"."follows_record_id"::float8 as "followsRecordId",
(select "f"."id"::float8 from "mot_event" "f"
where "f"."rule" = 'follow_up' and "f"."customer_id" = "r"."customer_id" and "f"."fact_key" = "r"."thread_id"::text) as "followUpEventId",
floor(extract(epoch from "r"."served_at") * 1000)::float8 as "servedAt",
floor(extract(epoch from "r"."created_at") * 1000)::float8 as "createdAt",
floor(extract(epoch from "r"."locks_at") * 1000)::float8 as "locksAt",
("r"."locks_at" <= now() or "r"."superseded_by" is not null) as "locked",
"r"."correction_reason" as "correctionReason",
"r"."edits" as "edits",
floor(extract(epoch from "r"."superseded_at") * 1000)::float8 as "supersededAt" from "contact_record" "r" join "customer" "c" on "c"."id" = "r"."customer_id" join "staff" "s" on "s"."id" = "r"."staff_id" where "r"."customer_id" = $1 order by "r"."served_at", "r"."thread_id", "r"."version";

-- getContactRecord: GET /api/contact/record, statement 1 of 2
-- reviseContactRecord: POST /api/contact/record/revise, statement 1 of 8
-- prepared
select "r"."thread_id"::float8 as "threadId", "r"."customer_id"::float8 as "customerId", "c"."staff_id" as "managerId"
from "contact_record" "r" join "customer" "c" on "c"."id" = "r"."customer_id"
where "r"."id" = $1 and "r"."corp_id" = $2;

-- getContactRecord: GET /api/contact/record, statement 2 of 2
-- reviseContactRecord: POST /api/contact/record/revise, statement 3 of 8
-- prepared
select "r"."id"::float8 as "recordId",
"r"."thread_id"::float8 as "threadId",
"r"."version" as "version",
"r"."superseded_by" is null as "latest",
"r"."customer_id"::float8 as "customerId",
coalesce(nullif("c"."name_cn", ''), "c"."name_en") as "customerName",
"c"."customer_no" as "customerNo",
"r"."staff_id" as "staffId",
"s"."name" as "staffName",
"r"."channel" as "channel",
"r"."purpose" as "purpose",
"r"."note" as "note",
"r"."outcome" as "outcome",
"r"."next_step" as "nextStep",
"r"."next_step_date"::text as "nextStepDate",
"r"."suitability" as "suitability",
(select coalesce(jsonb_agg(jsonb_build_object('eventId', "e"."id"::float8, 'rule', "e"."rule", 'dueDate', "e"."due_date"::text) order by "e"."id"), '[]'::jsonb)
from "contact_record_event" "l" join "mot_event" "e" on "e"."id" = "l"."mot_event_id" where "l"."record_id" = "r"."thread_id") as "events",
"r"."follows_record_id"::float8 as "followsRecordId",
(select "f"."id"::float8 from "mot_event" "f"
where "f"."rule" = 'follow_up' and "f"."customer_id" = "r"."customer_id" and "f"."fact_key" = "r"."thread_id"::text) as "followUpEventId",
floor(extract(epoch from "r"."served_at") * 1000)::float8 as "servedAt",
floor(extract(epoch from "r"."created_at") * 1000)::float8 as "createdAt",
floor(extract(epoch from "r"."locks_at") * 1000)::float8 as "locksAt",
("r"."locks_at" <= now() or "r"."superseded_by" is not null) as "locked",
"r"."correction_reason" as "correctionReason",
"r"."edits" as "edits",
floor(extract(epoch from "r"."superseded_at") * 1000)::float8 as "supersededAt" from "contact_record" "r" join "customer" "c" on "c"."id" = "r"."customer_id" join "staff" "s" on "s"."id" = "r"."staff_id" where "r"."thread_id" = $1 order by "r"."version" desc;

-- listContactRecords: GET /api/contact/records, statement 2 of 2
select "r"."id"::float8 as "recordId",
"r"."thread_id"::float8 as "threadId",
"r"."version" as "version",
"r"."superseded_by" is null as "latest",
"r"."customer_id"::float8 as "customerId",
coalesce(nullif("c"."name_cn", ''), "c"."name_en") as "customerName",
"c"."customer_no" as "customerNo",
"r"."staff_id" as "staffId",
"s"."name" as "staffName",
"r"."channel" as "channel",
"r"."purpose" as "purpose",
"r"."note" as "note",
"r"."outcome" as "outcome",
"r"."next_step" as "nextStep",
"r"."next_step_date"::text as "nextStepDate",
"r"."suitability" as "suitability",
(select coalesce(jsonb_agg(jsonb_build_object('eventId', "e"."id"::float8, 'rule', "e"."rule", 'dueDate', "e"."due_date"::text) order by "e"."id"), '[]'::jsonb)
from "contact_record_event" "l" join "mot_event" "e" on "e"."id" = "l"."mot_event_id" where "l"."record_id" = "r"."thread_id") as "events",
"r"."follows_record_id"::float8 as "followsRecordId",
(select "f"."id"::float8 from "mot_event" "f"
where "f"."rule" = 'follow_up' and "f"."customer_id" = "r"."customer_id" and "f"."fact_key" = "r"."thread_id"::text) as "followUpEventId",
floor(extract(epoch from "r"."served_at") * 1000)::float8 as "servedAt",
floor(extract(epoch from "r"."created_at") * 1000)::float8 as "createdAt",
floor(extract(epoch from "r"."locks_at") * 1000)::float8 as "locksAt",
("r"."locks_at" <= now() or "r"."superseded_by" is not null) as "locked",
"r"."correction_reason" as "correctionReason",
"r"."edits" as "edits",
floor(extract(epoch from "r"."superseded_at") * 1000)::float8 as "supersededAt" from "contact_record" "r" join "customer" "c" on "c"."id" = "r"."customer_id" join "staff" "s" on "s"."id" = "r"."staff_id" where "r"."customer_id" = $1 and "r"."superseded_by" is null
order by "r"."served_at" desc, "r"."id" desc limit $2;

-- reviseContactRecord: POST /api/contact/record/revise, statement 4 of 8
select "r"."id"::float8 as "recordId",
"r"."thread_id"::float8 as "threadId",
"r"."version" as "version",
"r"."customer_id"::float8 as "customerId",
"r"."staff_id" as "staffId",
"r"."edits" as "edits",
"r"."superseded_by"::float8 as "supersededBy",
"r"."locks_at" <= now() as "locked",
"r"."channel" as "channel",
"r"."purpose" as "purpose",
"r"."note" as "note",
"r"."outcome" as "outcome",
"r"."next_step" as "nextStep",
"r"."next_step_date"::text as "nextStepDate",
"r"."suitability" as "suitability",
floor(extract(epoch from "r"."served_at") * 1000)::float8 as "servedAt",
"r"."follows_record_id"::float8 as "followsRecordId" from "contact_record" "r" where "r"."id" = $1 for update;

-- reviseContactRecord: POST /api/contact/record/revise, statement 5 of 8
update "contact_record" set
"channel" = $1, "purpose" = $2,
"note" = $3, "outcome" = $4,
"next_step" = $5, "next_step_date" = $6::date,
"suitability" = $7,
"served_at" = to_timestamp($8::float8 / 1000),
"edits" = "contact_record"."edits" + 1
where "contact_record"."id" = $9;

-- reviseContactRecord: POST /api/contact/record/revise, statement 6 of 8
delete from "mot_event" where "mot_event"."rule" = $1 and "mot_event"."customer_id" = $2
and "mot_event"."fact_key" = $3 and "mot_event"."status" <> 'handled'
and not exists (select from "contact_record_event" where "contact_record_event"."mot_event_id" = "mot_event"."id");
