/**
 * A console list's parameters as they sit in the page's URL, passed to the admin API unchanged
 * (the server validates them); empty ones are left out.
 */
export function listQuery(search: URLSearchParams, names: readonly string[]): Record<string, string> {
  const query: Record<string, string> = {};
  for (const name of names) {
    const value = search.get(name);
    if (value) query[name] = value;
  }
  return query;
}
