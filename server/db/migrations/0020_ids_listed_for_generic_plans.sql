-- The ids of a list parameter as rows, which the planner counts as one row (ADR 0183). A prepared
-- statement that matched `id = any($1)` was planned afresh on every execution: PostgreSQL
-- prices its generic plan as if the list held ten ids, ten times the cost of the custom plan
-- for a one- or two-line order, so it never chose it, and planning cost more than running the
-- statement. Counted as one row, the generic plan costs what the custom one does and is kept
-- per connection. PL/pgSQL so that the count holds (a SQL function would be inlined into
-- `unnest`, which is counted as ten again).
CREATE FUNCTION "listed_ids"(ids integer[]) RETURNS SETOF integer
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE ROWS 1
  AS $$ BEGIN RETURN QUERY SELECT unnest(ids); END $$;
