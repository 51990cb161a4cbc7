/**
 * The largest value a PostgreSQL `integer` column holds: every row id (serial), and the
 * bound for numbers stored in such columns (prices in minor units). A larger id names no
 * row, so it is refused as input instead of reaching the database. (No zod here: page
 * code imports this module, and the browser bundle should not carry zod for a number.)
 */
export const PG_INTEGER_MAX = 2_147_483_647;

/**
 * A row id as written in a page address ('12'), or null: '0', '-1', '1e9', '007', 'abc'
 * and numbers past PG_INTEGER_MAX name nothing, so each page has one canonical address.
 */
export function plainRowId(text: string | undefined): number | null {
  if (!text || !/^[1-9]\d{0,9}$/.test(text)) return null;
  const id = Number(text);
  return id <= PG_INTEGER_MAX ? id : null;
}
