-- getMyAuditTrail: GET /api/audit/mine
select "l"."id"::float8 as "id",
floor(extract(epoch from "l"."at") * 1000)::float8 as "at",
"l"."action" as "action",
"l"."entity" as "entity",
"l"."entity_id" as "entityId",
"l"."before" as "before",
"l"."after" as "after",
"c"."id"::float8 as "customerId",
"c"."name_cn" as "nameCn",
"c"."name_en" as "nameEn",
"c"."customer_no" as "customerNo",
"e"."rule" as "eventRule" from "audit_log" "l"
left join "mot_event" "e" on "l"."entity" = 'mot_event' and "e"."id" = (case when "l"."entity" = 'mot_event' then "l"."entity_id"::bigint end)
left join "customer" "c" on "c"."corp_id" = "l"."corp_id" and "c"."id" = (case
when "l"."entity" = 'customer' then "l"."entity_id"::bigint
when "l"."entity" = 'kyc_binding' then coalesce(("l"."after" ->> 'customerId')::bigint, ("l"."before" ->> 'customerId')::bigint)
when "l"."entity" = 'mot_event' then "e"."customer_id"
when "l"."entity" = 'contact_record' then ("l"."after" ->> 'customerId')::bigint end)
where "l"."actor_staff_id" = $1 and "l"."corp_id" = $2
order by "l"."at" desc, "l"."id" desc
limit $3;
