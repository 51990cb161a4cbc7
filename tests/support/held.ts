/** A promise the test settles by hand: work that awaits `released` holds whatever it took until `release()`. */
export function held(): { released: Promise<void>; release: () => void } {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  return { released, release };
}
