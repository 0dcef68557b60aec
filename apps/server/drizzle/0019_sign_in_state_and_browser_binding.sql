-- Issue 17 items 1 and 4 (ADRs 0011, 0012).
-- A sign-in begins on the server: the state its browser holds in an HttpOnly cookie (hashed), the
-- agent whose home page started it, and a short lifetime. The code exchange deletes the row, so a
-- state works once; expired rows are swept as new sign-ins start.
CREATE TABLE IF NOT EXISTS "sign_in_attempt" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"corp_id" integer NOT NULL REFERENCES "corp"("id"),
	"agent_code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "sign_in_attempt_expires_idx" ON "sign_in_attempt" ("expires_at");--> statement-breakpoint
-- A session belongs to the browser it was issued to: the SHA-256 of that browser's binding cookie.
-- Sessions issued before this migration have none and are refused, so everyone signs in once more.
ALTER TABLE "auth_session" ADD COLUMN IF NOT EXISTS "binding_hash" text;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "auth_session_binding_idx" ON "auth_session" ("binding_hash");
