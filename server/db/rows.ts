/**
 * The row a statement always answers: INSERT or UPDATE ... RETURNING of a row just written or
 * locked, or an aggregate without GROUP BY. None is a bug, not an outcome to handle.
 */
export function onlyRow<T>(rows: readonly T[]): T {
  const [row] = rows;
  if (row === undefined) throw new Error('A statement that always answers a row answered none');
  return row;
}
