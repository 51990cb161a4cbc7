ALTER TABLE "payment_events" ADD COLUMN "provider_ref" text;--> statement-breakpoint
ALTER TABLE "payment_events" ADD COLUMN "held" jsonb;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "method" text;--> statement-breakpoint
UPDATE "payments" SET "method" = CASE WHEN "provider" = 'sandbox' THEN 'sandbox' ELSE 'card' END;--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "method" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "payment_events_held_idx" ON "payment_events" USING btree ("provider","provider_ref") WHERE "payment_events"."outcome" = 'held';--> statement-breakpoint
CREATE INDEX "payments_pending_idx" ON "payments" USING btree ("updated_at") WHERE "payments"."status" = 'pending';