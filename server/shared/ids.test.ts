import { describe, expect, it } from 'vitest';
import { plainRowId } from './ids';
import { rowId, rowIdFromText } from './ids.schemas';

describe('row ids', () => {
  it('reads an id written plainly in an address, and nothing else', () => {
    expect(plainRowId('12')).toBe(12);
    expect(plainRowId('2147483647')).toBe(2_147_483_647);
    for (const text of ['2147483648', '9999999999', '0', '-1', '007', '1e9', '12.0', 'abc', '', undefined]) {
      expect(plainRowId(text), String(text)).toBeNull();
    }
  });

  it('refuses ids a PostgreSQL integer cannot hold, as JSON and as text', () => {
    expect(rowId.safeParse(2_147_483_647).success).toBe(true);
    expect(rowId.safeParse(2_147_483_648).success).toBe(false);
    expect(rowId.safeParse('12').success).toBe(false);
    expect(rowIdFromText.safeParse('12').data).toBe(12);
    expect(rowIdFromText.safeParse('2147483648').success).toBe(false);
    expect(rowIdFromText.safeParse('0').success).toBe(false);
  });
});
