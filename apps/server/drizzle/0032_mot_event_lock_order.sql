-- One lock order for every write to mot_event: the manager's rank version row (migration 0028) first, then the
-- pending-count rows (migration 0010). PostgreSQL fires a table's triggers of one kind in the order of their
-- names, and "counts" sorted before "rank": an event update locked its count row, then the rank version row —
-- while a contact record insert (handling an event) locks the rank version row first and then, updating its
-- event, the count row. Two such writers of one manager's same day and rule deadlocked (a "seen" answered
-- 090500 under the crash-safety burst). Renamed, the rank triggers fire first: every writer takes the
-- manager's rank version row before any count row.
ALTER TRIGGER mot_event_rank_version_insert ON mot_event RENAME TO mot_event_bumps_rank_version_on_insert;
--> statement-breakpoint
ALTER TRIGGER mot_event_rank_version_update ON mot_event RENAME TO mot_event_bumps_rank_version_on_update;
--> statement-breakpoint
ALTER TRIGGER mot_event_rank_version_delete ON mot_event RENAME TO mot_event_bumps_rank_version_on_delete;
--> statement-breakpoint
ALTER TRIGGER mot_event_rank_version_truncate ON mot_event RENAME TO mot_event_bumps_rank_version_on_truncate;
