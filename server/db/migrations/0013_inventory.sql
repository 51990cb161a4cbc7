CREATE TABLE "inventory_adjustments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"sku_id" integer NOT NULL,
	"delta" integer NOT NULL,
	"stock_after" integer NOT NULL,
	"reason" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"actor_type" text NOT NULL,
	"actor_id" integer,
	"actor_label" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inventory_adjustments_delta_non_zero" CHECK ("inventory_adjustments"."delta" <> 0),
	CONSTRAINT "inventory_adjustments_stock_after_non_negative" CHECK ("inventory_adjustments"."stock_after" >= 0)
);
--> statement-breakpoint
ALTER TABLE "product_skus" ADD COLUMN "low_stock_threshold" integer;--> statement-breakpoint
ALTER TABLE "inventory_adjustments" ADD CONSTRAINT "inventory_adjustments_sku_id_product_skus_id_fk" FOREIGN KEY ("sku_id") REFERENCES "public"."product_skus"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "inventory_adjustments_sku_at_idx" ON "inventory_adjustments" USING btree ("sku_id","at");--> statement-breakpoint
ALTER TABLE "product_skus" ADD CONSTRAINT "product_skus_low_stock_threshold_non_negative" CHECK ("product_skus"."low_stock_threshold" >= 0);