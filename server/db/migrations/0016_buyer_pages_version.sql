ALTER TABLE "users" ADD COLUMN "pages_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Account pages are kept per buyer while users.pages_version stands still (ADR 0095). Every
-- table those pages read moves it, in the same transaction as the change, whoever writes:
-- the buyer, a job, a webhook or the console. The triggers are deferred to commit, so the
-- buyer's row is locked last, after any stock rows: a batch job (the order sweep) and a checkout
-- never take the two kinds of lock in opposite orders. A new table the account pages read
-- gets the same trigger.
CREATE FUNCTION "bump_pages_version"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed jsonb := to_jsonb(CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END);
BEGIN
  UPDATE "users" SET "pages_version" = "pages_version" + 1
  WHERE "id" = CASE TG_ARGV[0]
    WHEN 'user' THEN (changed->>'user_id')::integer
    WHEN 'order' THEN (SELECT "orders"."user_id" FROM "orders" WHERE "orders"."id" = (changed->>'order_id')::integer)
    ELSE (SELECT "after_sales"."user_id" FROM "after_sales" WHERE "after_sales"."id" = (changed->>'after_sale_id')::integer)
  END;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A change to the buyer's own row (name, email, avatar, disabled, erased) moves it too,
-- unless the change is the move itself.
CREATE FUNCTION "bump_own_pages_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."pages_version" = OLD."pages_version" THEN
    NEW."pages_version" := OLD."pages_version" + 1;
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "users_pages_version" BEFORE UPDATE ON "users"
  FOR EACH ROW EXECUTE FUNCTION "bump_own_pages_version"();
--> statement-breakpoint
DO $$
DECLARE
  watched record;
BEGIN
  FOR watched IN
    SELECT * FROM (VALUES
      ('orders', 'user'), ('payments', 'user'), ('after_sales', 'user'), ('user_addresses', 'user'),
      ('user_identities', 'user'), ('private_uploads', 'user'),
      ('order_items', 'order'), ('order_status_history', 'order'), ('order_tracking_events', 'order'),
      ('order_duty_lines', 'order'), ('refunds', 'order'),
      ('after_sale_lines', 'after_sale'), ('after_sale_history', 'after_sale')
    ) AS watched_tables(table_name, owner)
  LOOP
    EXECUTE format(
      'CREATE CONSTRAINT TRIGGER %I AFTER INSERT OR UPDATE OR DELETE ON %I DEFERRABLE INITIALLY DEFERRED '
        || 'FOR EACH ROW EXECUTE FUNCTION "bump_pages_version"(%L)',
      watched.table_name || '_pages_version', watched.table_name, watched.owner);
  END LOOP;
END $$;
