/** A button that, while its action runs, cannot be pressed again and tells assistive technology it is busy. */
export function BusyButton({ busy, ...button }: { busy: boolean } & React.ButtonHTMLAttributes<HTMLButtonElement>) {
  return <button {...button} disabled={busy || button.disabled} aria-busy={busy} />;
}
