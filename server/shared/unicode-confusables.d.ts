// unicode-confusables ships its declarations as `index.ts.d`, which TypeScript does not find.
declare module 'unicode-confusables' {
  /** Each code point replaced by its TR39 confusables.txt prototype (zero-width characters dropped). */
  export function rectifyConfusion(input: string): string;
  export function isConfusing(input: string): boolean;
}
