-- A buyer's pages_version moves once per transaction, not once per changed row (ADR 0095):
-- placing an order wrote the order, its lines, its duty lines and its history, and each row's
-- deferred trigger updated the buyer's row again at commit (a new row version each time, for
-- the same effect). The ids already moved are kept in a transaction-local setting, which a
-- rolled-back savepoint takes back with everything else.
CREATE OR REPLACE FUNCTION "bump_pages_version"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed jsonb := to_jsonb(CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END);
  owner_id integer;
  moved text := coalesce(current_setting('shop.pages_version_moved', true), '');
BEGIN
  owner_id := CASE TG_ARGV[0]
    WHEN 'user' THEN (changed->>'user_id')::integer
    WHEN 'order' THEN (SELECT "orders"."user_id" FROM "orders" WHERE "orders"."id" = (changed->>'order_id')::integer)
    ELSE (SELECT "after_sales"."user_id" FROM "after_sales" WHERE "after_sales"."id" = (changed->>'after_sale_id')::integer)
  END;
  IF owner_id IS NULL OR position(',' || owner_id || ',' IN moved) > 0 THEN
    RETURN NULL;
  END IF;
  UPDATE "users" SET "pages_version" = "pages_version" + 1 WHERE "id" = owner_id;
  PERFORM set_config('shop.pages_version_moved', coalesce(nullif(moved, ''), ',') || owner_id || ',', true);
  RETURN NULL;
END $$;
