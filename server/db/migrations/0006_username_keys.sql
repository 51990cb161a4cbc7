ALTER TABLE "users" ADD COLUMN "username_key" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "username_skeleton" text;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_username_key_unique" UNIQUE("username_key");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_username_skeleton_unique" UNIQUE("username_skeleton");