CREATE TABLE "account" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"corp_id" integer NOT NULL,
	"customer_id" bigint NOT NULL,
	"account_no" text NOT NULL,
	"type" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"open_date" date NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cash_balance" (
	"account_id" bigint NOT NULL,
	"currency" text NOT NULL,
	"balance" numeric(18, 2) NOT NULL,
	CONSTRAINT "cash_balance_account_id_currency_pk" PRIMARY KEY("account_id","currency")
);
--> statement-breakpoint
CREATE TABLE "customer" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"corp_id" integer NOT NULL,
	"staff_id" integer NOT NULL,
	"customer_no" text NOT NULL,
	"channel" text NOT NULL,
	"name_cn" text NOT NULL,
	"name_en" text NOT NULL,
	"gender" text,
	"phone" text,
	"phone_digits" text,
	"email" text,
	"id_doc_type" text NOT NULL,
	"id_doc_masked" text NOT NULL,
	"id_doc_last4" text NOT NULL,
	"id_doc_expiry" date,
	"birthday" date,
	"risk_level" integer NOT NULL,
	"risk_assessed_on" date,
	"status" text DEFAULT 'active' NOT NULL,
	"open_date" date NOT NULL,
	"closed_date" date,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"remark" text,
	"version" integer DEFAULT 1 NOT NULL,
	"total_assets_hkd" numeric(20, 2) DEFAULT '0' NOT NULL,
	"cash_hkd" numeric(20, 2) DEFAULT '0' NOT NULL,
	"market_value_hkd" numeric(20, 2) DEFAULT '0' NOT NULL,
	"last_trade_date" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exchange_rate" (
	"currency" text NOT NULL,
	"rate_date" date NOT NULL,
	"rate" numeric(18, 8) NOT NULL,
	"source" text NOT NULL,
	CONSTRAINT "exchange_rate_currency_rate_date_pk" PRIMARY KEY("currency","rate_date")
);
--> statement-breakpoint
CREATE TABLE "holding" (
	"account_id" bigint NOT NULL,
	"customer_id" bigint NOT NULL,
	"security_id" integer NOT NULL,
	"quantity" bigint NOT NULL,
	"avg_cost" numeric(18, 4) NOT NULL,
	CONSTRAINT "holding_account_id_security_id_pk" PRIMARY KEY("account_id","security_id")
);
--> statement-breakpoint
CREATE TABLE "kyc_binding" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"corp_id" integer NOT NULL,
	"external_user_id" text NOT NULL,
	"customer_id" bigint NOT NULL,
	"bound_by_staff_id" integer NOT NULL,
	"bound_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "money_movement" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" bigint NOT NULL,
	"customer_id" bigint NOT NULL,
	"direction" text NOT NULL,
	"currency" text NOT NULL,
	"amount" numeric(18, 2) NOT NULL,
	"method" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"external_ref" text
);
--> statement-breakpoint
CREATE TABLE "security" (
	"id" serial PRIMARY KEY NOT NULL,
	"symbol" text NOT NULL,
	"market" text NOT NULL,
	"name_cn" text NOT NULL,
	"name_en" text NOT NULL,
	"currency" text NOT NULL,
	"lot_size" integer NOT NULL,
	"last_price" numeric(18, 4) NOT NULL,
	"prev_close" numeric(18, 4) NOT NULL,
	"price_date" date NOT NULL,
	CONSTRAINT "security_symbol_unique" UNIQUE("symbol")
);
--> statement-breakpoint
CREATE TABLE "stock_transfer" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" bigint NOT NULL,
	"customer_id" bigint NOT NULL,
	"security_id" integer NOT NULL,
	"direction" text NOT NULL,
	"quantity" bigint NOT NULL,
	"counterparty" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"external_ref" text
);
--> statement-breakpoint
CREATE TABLE "trade" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" bigint NOT NULL,
	"customer_id" bigint NOT NULL,
	"security_id" integer NOT NULL,
	"side" text NOT NULL,
	"quantity" bigint NOT NULL,
	"price" numeric(18, 4) NOT NULL,
	"amount" numeric(18, 2) NOT NULL,
	"fee" numeric(18, 2) NOT NULL,
	"currency" text NOT NULL,
	"traded_at" timestamp with time zone NOT NULL,
	"settle_date" date NOT NULL,
	"external_ref" text
);
--> statement-breakpoint
CREATE TABLE "mot_event" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"corp_id" integer NOT NULL,
	"rule" text NOT NULL,
	"customer_id" bigint NOT NULL,
	"staff_id" integer NOT NULL,
	"fact_key" text NOT NULL,
	"due_date" date NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"facts" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seen_at" timestamp with time zone,
	"handled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "service_record" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"corp_id" integer NOT NULL,
	"customer_id" bigint NOT NULL,
	"staff_id" integer NOT NULL,
	"mot_event_id" bigint,
	"channel" text NOT NULL,
	"note" text NOT NULL,
	"outcome" text,
	"served_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"corp_id" integer,
	"actor_staff_id" integer,
	"action" text NOT NULL,
	"entity" text NOT NULL,
	"entity_id" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "staff" ADD COLUMN "channel" text DEFAULT 'branch' NOT NULL;--> statement-breakpoint
ALTER TABLE "account" ADD CONSTRAINT "account_corp_id_corp_id_fk" FOREIGN KEY ("corp_id") REFERENCES "public"."corp"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account" ADD CONSTRAINT "account_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cash_balance" ADD CONSTRAINT "cash_balance_account_id_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."account"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer" ADD CONSTRAINT "customer_corp_id_corp_id_fk" FOREIGN KEY ("corp_id") REFERENCES "public"."corp"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer" ADD CONSTRAINT "customer_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holding" ADD CONSTRAINT "holding_account_id_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."account"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holding" ADD CONSTRAINT "holding_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holding" ADD CONSTRAINT "holding_security_id_security_id_fk" FOREIGN KEY ("security_id") REFERENCES "public"."security"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kyc_binding" ADD CONSTRAINT "kyc_binding_corp_id_corp_id_fk" FOREIGN KEY ("corp_id") REFERENCES "public"."corp"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kyc_binding" ADD CONSTRAINT "kyc_binding_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kyc_binding" ADD CONSTRAINT "kyc_binding_bound_by_staff_id_staff_id_fk" FOREIGN KEY ("bound_by_staff_id") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "money_movement" ADD CONSTRAINT "money_movement_account_id_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."account"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "money_movement" ADD CONSTRAINT "money_movement_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_transfer" ADD CONSTRAINT "stock_transfer_account_id_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."account"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_transfer" ADD CONSTRAINT "stock_transfer_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_transfer" ADD CONSTRAINT "stock_transfer_security_id_security_id_fk" FOREIGN KEY ("security_id") REFERENCES "public"."security"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade" ADD CONSTRAINT "trade_account_id_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."account"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade" ADD CONSTRAINT "trade_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade" ADD CONSTRAINT "trade_security_id_security_id_fk" FOREIGN KEY ("security_id") REFERENCES "public"."security"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mot_event" ADD CONSTRAINT "mot_event_corp_id_corp_id_fk" FOREIGN KEY ("corp_id") REFERENCES "public"."corp"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mot_event" ADD CONSTRAINT "mot_event_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mot_event" ADD CONSTRAINT "mot_event_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_record" ADD CONSTRAINT "service_record_corp_id_corp_id_fk" FOREIGN KEY ("corp_id") REFERENCES "public"."corp"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_record" ADD CONSTRAINT "service_record_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_record" ADD CONSTRAINT "service_record_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_record" ADD CONSTRAINT "service_record_mot_event_id_mot_event_id_fk" FOREIGN KEY ("mot_event_id") REFERENCES "public"."mot_event"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_corp_id_corp_id_fk" FOREIGN KEY ("corp_id") REFERENCES "public"."corp"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_actor_staff_id_staff_id_fk" FOREIGN KEY ("actor_staff_id") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "account_corp_no_uq" ON "account" USING btree ("corp_id","account_no");--> statement-breakpoint
CREATE INDEX "account_customer_idx" ON "account" USING btree ("customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "customer_corp_no_uq" ON "customer" USING btree ("corp_id","customer_no");--> statement-breakpoint
CREATE INDEX "customer_name_cn_trgm" ON "customer" USING gin ("name_cn" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "customer_name_en_trgm" ON "customer" USING gin ("name_en" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "customer_phone_trgm" ON "customer" USING gin ("phone_digits" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "customer_id_last4_idx" ON "customer" USING btree ("corp_id","id_doc_last4");--> statement-breakpoint
CREATE INDEX "customer_staff_assets_idx" ON "customer" USING btree ("staff_id","total_assets_hkd" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "customer_staff_open_idx" ON "customer" USING btree ("staff_id","open_date" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "customer_staff_last_trade_idx" ON "customer" USING btree ("staff_id","last_trade_date" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "customer_staff_status_idx" ON "customer" USING btree ("staff_id","status");--> statement-breakpoint
CREATE INDEX "holding_customer_idx" ON "holding" USING btree ("customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "kyc_binding_contact_uq" ON "kyc_binding" USING btree ("corp_id","external_user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "kyc_binding_customer_uq" ON "kyc_binding" USING btree ("corp_id","customer_id");--> statement-breakpoint
CREATE INDEX "money_movement_customer_time_idx" ON "money_movement" USING btree ("customer_id","occurred_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "money_movement_account_ref_uq" ON "money_movement" USING btree ("account_id","external_ref") WHERE external_ref is not null;--> statement-breakpoint
CREATE INDEX "stock_transfer_customer_time_idx" ON "stock_transfer" USING btree ("customer_id","occurred_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "stock_transfer_account_ref_uq" ON "stock_transfer" USING btree ("account_id","external_ref") WHERE external_ref is not null;--> statement-breakpoint
CREATE INDEX "trade_customer_time_idx" ON "trade" USING btree ("customer_id","traded_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "trade_account_ref_uq" ON "trade" USING btree ("account_id","external_ref") WHERE external_ref is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "mot_event_fact_uq" ON "mot_event" USING btree ("rule","customer_id","fact_key");--> statement-breakpoint
CREATE INDEX "mot_event_staff_status_due_idx" ON "mot_event" USING btree ("staff_id","status","due_date");--> statement-breakpoint
CREATE INDEX "mot_event_customer_idx" ON "mot_event" USING btree ("customer_id","due_date");--> statement-breakpoint
CREATE INDEX "service_record_staff_time_idx" ON "service_record" USING btree ("staff_id","served_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "service_record_customer_time_idx" ON "service_record" USING btree ("customer_id","served_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "service_record_note_trgm" ON "service_record" USING gin ("note" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "audit_log_entity_idx" ON "audit_log" USING btree ("entity","entity_id","at");--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor_staff_id","at");