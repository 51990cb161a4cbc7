ALTER TABLE "products" ADD COLUMN "status" text DEFAULT 'published' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "seo_title" jsonb;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "seo_description" jsonb;--> statement-breakpoint
UPDATE "products" SET "status" = 'draft' WHERE NOT "listed";--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_listed_when_published" CHECK ("products"."listed" = ("products"."status" = 'published'));