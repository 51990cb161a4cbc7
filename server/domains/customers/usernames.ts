import { rectifyConfusion } from 'unicode-confusables';

/**
 * When two usernames are "the same name" (ADR 0080). Names are shown as typed; these forms
 * only decide uniqueness:
 * - the key: NFKC (fullwidth `ＡＬＩＣＥ` is `ALICE`, `ﬁ` is `fi`) and full case folding
 *   (`Alice`, `alice`, `ALICE`, `straße` and `STRASSE` are one name);
 * - the skeleton: Unicode TR39's confusable skeleton of the key (Cyrillic `а` is Latin `a`,
 *   `I` and `1` are `l`, `0` is `O`), folded again, so names made to look like another collide.
 */
export function usernameKey(name: string): string {
  // Upper then lower case folds what lower case alone keeps apart: ß/SS, ς/σ, ǅ/ǆ.
  return name.trim().normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');
}

export function usernameSkeleton(name: string): string {
  const skeleton = rectifyConfusion(name.trim().normalize('NFKC').normalize('NFD')).normalize('NFD');
  return usernameKey(skeleton);
}

// Scripts a username may be written in; a letter of any other script counts as its own "other".
const SCRIPTS = [
  'Latin',
  'Greek',
  'Cyrillic',
  'Armenian',
  'Georgian',
  'Hebrew',
  'Arabic',
  'Thaana',
  'Devanagari',
  'Bengali',
  'Tamil',
  'Thai',
  'Lao',
  'Tibetan',
  'Myanmar',
  'Khmer',
  'Ethiopic',
  'Han',
  'Hiragana',
  'Katakana',
  'Bopomofo',
  'Hangul',
] as const;
const SCRIPT_PATTERNS = SCRIPTS.map((script) => [script, new RegExp(`\\p{Script_Extensions=${script}}`, 'u')] as const);
const NEUTRAL = /[\p{Script=Common}\p{Script=Inherited}]/u;

/** TR39 "highly restrictive": one script, or Latin with the scripts written together in East Asia. */
const ALLOWED_MIXES: ReadonlyArray<ReadonlySet<string>> = [
  new Set(['Latin', 'Han', 'Hiragana', 'Katakana']),
  new Set(['Latin', 'Han', 'Bopomofo']),
  new Set(['Latin', 'Han', 'Hangul']),
];

/** True when a name mixes scripts the way spoofed names do (Latin `p` beside Cyrillic `а`). */
export function mixesScripts(name: string): boolean {
  const used = new Set<string>();
  for (const char of name) {
    if (NEUTRAL.test(char)) continue;
    // A character in several scripts' extensions (the ideographic iteration mark) is counted once, by its first.
    const script =
      SCRIPT_PATTERNS.find(([, pattern]) => pattern.test(char))?.[0] ?? `other:${char.codePointAt(0)! >> 7}`;
    used.add(script);
  }
  if (used.size <= 1) return false;
  return !ALLOWED_MIXES.some((allowed) => [...used].every((script) => allowed.has(script)));
}
