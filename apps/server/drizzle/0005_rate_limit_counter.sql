CREATE TABLE "rate_limit_counter" (
	"bucket" text NOT NULL,
	"subject" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"hits" integer NOT NULL,
	CONSTRAINT "rate_limit_counter_bucket_subject_pk" PRIMARY KEY("bucket","subject")
);
