CREATE TABLE "exchange_rates" (
	"currency" text PRIMARY KEY NOT NULL,
	"rate_micros" bigint NOT NULL,
	"source" text NOT NULL,
	"set_at" timestamp with time zone DEFAULT now() NOT NULL,
	"set_by" text NOT NULL,
	CONSTRAINT "exchange_rates_rate_positive" CHECK ("exchange_rates"."rate_micros" > 0)
);
--> statement-breakpoint
INSERT INTO "exchange_rates" ("currency", "rate_micros", "source", "set_at", "set_by")
SELECT "rate"."key", round("rate"."value"::numeric * 1000000)::bigint, 'site settings (before ADR 0144)', "site_settings"."updated_at", 'migration'
FROM "site_settings", jsonb_each_text("site_settings"."value") AS "rate"
WHERE "site_settings"."key" = 'exchange_rates' AND "rate"."value"::numeric > 0;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "charged_amount_minor" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "charged_currency" text;--> statement-breakpoint
UPDATE "payments" SET "charged_amount_minor" = "amount_minor", "charged_currency" = "currency";--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "charged_amount_minor" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "charged_currency" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "charged_amount_minor" integer;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "charged_currency" text;--> statement-breakpoint
UPDATE "refunds" SET "charged_amount_minor" = "amount_minor", "charged_currency" = "currency";--> statement-breakpoint
ALTER TABLE "refunds" ALTER COLUMN "charged_amount_minor" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ALTER COLUMN "charged_currency" SET NOT NULL;
