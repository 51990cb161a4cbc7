CREATE TABLE "duty_rates" (
	"id" serial PRIMARY KEY NOT NULL,
	"duty_zone" varchar(8) NOT NULL,
	"measure" text NOT NULL,
	"hs_prefix" varchar(12) NOT NULL,
	"origin_country" varchar(2),
	"rate_bps" integer NOT NULL,
	"valid_from" timestamp with time zone NOT NULL,
	"valid_to" timestamp with time zone,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "duty_rates_rate_non_negative" CHECK ("duty_rates"."rate_bps" >= 0)
);
--> statement-breakpoint
CREATE TABLE "duty_terms" (
	"country_code" varchar(2) PRIMARY KEY NOT NULL,
	"incoterm" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "import_regimes" (
	"id" serial PRIMARY KEY NOT NULL,
	"country_code" varchar(2) NOT NULL,
	"duty_zone" varchar(8) NOT NULL,
	"valid_from" timestamp with time zone NOT NULL,
	"valid_to" timestamp with time zone,
	"currency" varchar(3) NOT NULL,
	"fallback_rate_micros" bigint,
	"low_value_threshold_minor" integer NOT NULL,
	"low_value_tax" text NOT NULL,
	"low_value_duty" text NOT NULL,
	"flat_duty_per_subheading_minor" integer DEFAULT 0 NOT NULL,
	"tax_label" jsonb NOT NULL,
	"tax_rate_bps" integer NOT NULL,
	"handling_fee_minor" integer DEFAULT 0 NOT NULL,
	"valuation_bps" integer DEFAULT 10000 NOT NULL,
	"shipping_is_dutiable" boolean NOT NULL,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "import_regimes_figures_non_negative" CHECK ("import_regimes"."low_value_threshold_minor" >= 0 and "import_regimes"."tax_rate_bps" >= 0 and "import_regimes"."flat_duty_per_subheading_minor" >= 0 and "import_regimes"."handling_fee_minor" >= 0 and "import_regimes"."valuation_bps" > 0)
);
--> statement-breakpoint
CREATE TABLE "order_duty_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"order_item_id" integer NOT NULL,
	"incoterm" text NOT NULL,
	"rules_version" text NOT NULL,
	"hs_code" varchar(12),
	"origin_country" varchar(2),
	"currency" varchar(3) NOT NULL,
	"rate_micros" bigint NOT NULL,
	"customs_value_minor" integer NOT NULL,
	"duty_rate_bps" integer NOT NULL,
	"duty_minor" integer NOT NULL,
	"tax_rate_bps" integer NOT NULL,
	"tax_minor" integer NOT NULL,
	"fee_minor" integer NOT NULL,
	"charged_minor" integer NOT NULL,
	"estimate_minor" integer NOT NULL,
	"estimate_hidden" boolean DEFAULT false NOT NULL,
	CONSTRAINT "order_duty_lines_amounts_non_negative" CHECK ("order_duty_lines"."charged_minor" >= 0 and "order_duty_lines"."estimate_minor" >= 0)
);
--> statement-breakpoint
ALTER TABLE "product_skus" ADD COLUMN "hs_code" varchar(12);--> statement-breakpoint
ALTER TABLE "product_skus" ADD COLUMN "origin_country" varchar(2);--> statement-breakpoint
ALTER TABLE "product_skus" ADD COLUMN "customs_description" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "duties_minor" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_duty_lines" ADD CONSTRAINT "order_duty_lines_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_duty_lines" ADD CONSTRAINT "order_duty_lines_order_item_id_order_items_id_fk" FOREIGN KEY ("order_item_id") REFERENCES "public"."order_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "duty_rates_zone_idx" ON "duty_rates" USING btree ("duty_zone","hs_prefix");--> statement-breakpoint
CREATE UNIQUE INDEX "duty_rates_identity_idx" ON "duty_rates" USING btree ("duty_zone","measure","hs_prefix",coalesce("origin_country", ''),"valid_from");--> statement-breakpoint
CREATE UNIQUE INDEX "import_regimes_country_from_idx" ON "import_regimes" USING btree ("country_code","valid_from");--> statement-breakpoint
CREATE INDEX "order_duty_lines_order_idx" ON "order_duty_lines" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "order_duty_lines_item_idx" ON "order_duty_lines" USING btree ("order_item_id");