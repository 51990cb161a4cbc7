ALTER TABLE "users" ADD COLUMN "pages_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Account pages are kept per buyer while users.pages_version stands still (ADR 0095). Every
-- table those pages read moves it, in the same transaction as the change, whoever writes:
-- the buyer, a job, a webhook or the console. Statement triggers: one update per statement.
CREATE FUNCTION "bump_pages_version_by_user"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "users" SET "pages_version" = "pages_version" + 1
  WHERE "id" IN (SELECT DISTINCT "user_id" FROM "changed_rows");
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "bump_pages_version_by_order"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "users" SET "pages_version" = "pages_version" + 1
  WHERE "id" IN (SELECT "orders"."user_id" FROM "orders" WHERE "orders"."id" IN (SELECT "order_id" FROM "changed_rows"));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "bump_pages_version_by_after_sale"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "users" SET "pages_version" = "pages_version" + 1
  WHERE "id" IN (
    SELECT "after_sales"."user_id" FROM "after_sales" WHERE "after_sales"."id" IN (SELECT "after_sale_id" FROM "changed_rows")
  );
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
  -- PostgreSQL allows transition tables on one event per trigger: three triggers per table.
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
      'CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION %I()',
      watched.table_name || '_pages_version_insert', watched.table_name, 'bump_pages_version_by_' || watched.owner);
    EXECUTE format(
      'CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION %I()',
      watched.table_name || '_pages_version_update', watched.table_name, 'bump_pages_version_by_' || watched.owner);
    EXECUTE format(
      'CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION %I()',
      watched.table_name || '_pages_version_delete', watched.table_name, 'bump_pages_version_by_' || watched.owner);
  END LOOP;
END $$;
