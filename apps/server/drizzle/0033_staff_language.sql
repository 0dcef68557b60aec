-- The language each staff member uses the app in (issue 24.2, ADR 0042): zh-CN (the default), zh-HK or en. The
-- web sends it when the manager changes it and with each sign-in; the MOT cards pushed into WeCom are written in
-- it, as WeCom keeps no language per member. Beside mot_push_opt_out, the other setting of those cards.
ALTER TABLE "staff" ADD COLUMN IF NOT EXISTS "language" text DEFAULT 'zh-CN' NOT NULL;--> statement-breakpoint
ALTER TABLE "staff" ADD CONSTRAINT "staff_language_ck" CHECK ("language" IN ('zh-CN', 'zh-HK', 'en'));
