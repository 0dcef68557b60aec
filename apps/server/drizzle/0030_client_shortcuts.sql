-- Back to my clients fast (issue 22.6, ADR 0049): each client manager's pinned clients, recently opened
-- clients, recent searches and saved filters. Server-side, so they follow the manager to another device and
-- through a re-login, and another manager signing in on the same phone never sees them. Every row names its
-- staff member; a client shows only while it is in that staff member's book (the reads join customer on the
-- caller's scope), so a client handed to a colleague drops out of the old manager's lists by itself.
CREATE TABLE IF NOT EXISTS "staff_pinned_client" (
	"corp_id" integer NOT NULL REFERENCES "corp"("id"),
	"staff_id" integer NOT NULL REFERENCES "staff"("id"),
	"customer_id" bigint NOT NULL REFERENCES "customer"("id") ON DELETE CASCADE,
	"pinned_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "staff_pinned_client_pk" PRIMARY KEY("staff_id","customer_id")
);--> statement-breakpoint
-- kind: client (value: the customer id) | search (value: the keyword as searched, trimmed).
CREATE TABLE IF NOT EXISTS "staff_recent" (
	"corp_id" integer NOT NULL REFERENCES "corp"("id"),
	"staff_id" integer NOT NULL REFERENCES "staff"("id"),
	"kind" text NOT NULL,
	"value" text NOT NULL,
	"used_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "staff_recent_pk" PRIMARY KEY("staff_id","kind","value"),
	CONSTRAINT "staff_recent_kind_ck" CHECK ("kind" IN ('client', 'search'))
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "staff_recent_used_idx" ON "staff_recent" USING btree ("staff_id","kind","used_at" DESC);--> statement-breakpoint
-- filters: the search request's filter fields and sort as the contract checked them (savedFilterSetSchema).
CREATE TABLE IF NOT EXISTS "staff_saved_filter" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"corp_id" integer NOT NULL REFERENCES "corp"("id"),
	"staff_id" integer NOT NULL REFERENCES "staff"("id"),
	"name" text NOT NULL,
	"filters" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "staff_saved_filter_name_uq" ON "staff_saved_filter" USING btree ("staff_id","name");
