CREATE TABLE "after_sale_history" (
	"id" serial PRIMARY KEY NOT NULL,
	"after_sale_id" integer NOT NULL,
	"from_state" text,
	"to_state" text NOT NULL,
	"actor" text NOT NULL,
	"note" text NOT NULL,
	"message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "after_sale_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"after_sale_id" integer NOT NULL,
	"order_item_id" integer NOT NULL,
	"quantity" integer NOT NULL,
	"refund_minor" integer NOT NULL,
	"wanted_sku_id" integer,
	"accepted_quantity" integer,
	"damaged_quantity" integer,
	"restocked" boolean DEFAULT false NOT NULL,
	CONSTRAINT "after_sale_lines_quantity_positive" CHECK ("after_sale_lines"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "after_sales" (
	"id" serial PRIMARY KEY NOT NULL,
	"case_no" text NOT NULL,
	"order_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"type" smallint NOT NULL,
	"state" text DEFAULT 'requested' NOT NULL,
	"reason" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"photos" text[] DEFAULT '{}'::text[] NOT NULL,
	"estimate_minor" integer NOT NULL,
	"approved_minor" integer,
	"includes_shipping" boolean DEFAULT false NOT NULL,
	"returnless" boolean DEFAULT false NOT NULL,
	"rejection" text,
	"shop_message" text,
	"appealed" boolean DEFAULT false NOT NULL,
	"return_carrier" text,
	"return_tracking_no" text,
	"exchange_carrier_code" text,
	"exchange_tracking_no" text,
	"deadline" timestamp with time zone,
	"idempotency_key" text NOT NULL,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "after_sales_case_no_unique" UNIQUE("case_no"),
	CONSTRAINT "after_sales_type_known" CHECK ("after_sales"."type" in (10, 20, 30)),
	CONSTRAINT "after_sales_amounts_non_negative" CHECK ("after_sales"."estimate_minor" >= 0 and coalesce("after_sales"."approved_minor", 0) >= 0)
);
--> statement-breakpoint
CREATE TABLE "private_uploads" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"path" text NOT NULL,
	"bytes" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "final_sale" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "after_sale_base_status" smallint;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "after_sale_id" integer;--> statement-breakpoint
ALTER TABLE "after_sale_history" ADD CONSTRAINT "after_sale_history_after_sale_id_after_sales_id_fk" FOREIGN KEY ("after_sale_id") REFERENCES "public"."after_sales"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "after_sale_lines" ADD CONSTRAINT "after_sale_lines_after_sale_id_after_sales_id_fk" FOREIGN KEY ("after_sale_id") REFERENCES "public"."after_sales"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "after_sale_lines" ADD CONSTRAINT "after_sale_lines_order_item_id_order_items_id_fk" FOREIGN KEY ("order_item_id") REFERENCES "public"."order_items"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "after_sales" ADD CONSTRAINT "after_sales_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "after_sales" ADD CONSTRAINT "after_sales_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "private_uploads" ADD CONSTRAINT "private_uploads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "after_sale_history_case_idx" ON "after_sale_history" USING btree ("after_sale_id","id");--> statement-breakpoint
CREATE INDEX "after_sale_lines_case_idx" ON "after_sale_lines" USING btree ("after_sale_id");--> statement-breakpoint
CREATE INDEX "after_sale_lines_item_idx" ON "after_sale_lines" USING btree ("order_item_id");--> statement-breakpoint
CREATE INDEX "after_sales_order_idx" ON "after_sales" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "after_sales_user_created_idx" ON "after_sales" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "after_sales_state_created_idx" ON "after_sales" USING btree ("state","created_at");--> statement-breakpoint
CREATE INDEX "after_sales_state_deadline_idx" ON "after_sales" USING btree ("state","deadline");--> statement-breakpoint
CREATE UNIQUE INDEX "after_sales_user_idempotency_idx" ON "after_sales" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "private_uploads_user_idx" ON "private_uploads" USING btree ("user_id","created_at");--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_after_sale_id_after_sales_id_fk" FOREIGN KEY ("after_sale_id") REFERENCES "public"."after_sales"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refunds_after_sale_idx" ON "refunds" USING btree ("after_sale_id");