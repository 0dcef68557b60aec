CREATE TABLE "mot_sweep_run" (
	"run_date" date PRIMARY KEY NOT NULL,
	"owner" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"inserted" jsonb,
	"elapsed_ms" integer
);
