/**
 * Alipay writes amounts as yuan with two decimals ("88.00"); the shop keeps integer fen.
 * Both directions are string and integer arithmetic only, so no amount ever passes through
 * a float.
 */
export function yuanText(fen: number): string {
  if (!Number.isSafeInteger(fen) || fen < 0) throw new RangeError(`alipay: ${fen} is not a whole number of fen`);
  return `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;
}

/** An amount Alipay sent ("88", "88.5", "88.50") in fen; null when it is not a plain decimal of at most two places. */
export function fenOf(text: string | null | undefined): number | null {
  const match = /^(\d{1,13})(?:\.(\d{1,2}))?$/.exec(text ?? '');
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}
