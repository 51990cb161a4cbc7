import type { ReactNode } from 'react';
import { useConsoleT } from '../lib/console-context';

/** The centred card of the pages outside the shell: sign-in, first start, invitation. */
export function AuthCard({ title, intro, children }: { title: string; intro?: string; children: ReactNode }) {
  const t = useConsoleT();
  return (
    <main className="console-auth" id="main">
      <div className="console-auth__card">
        <p className="console-auth__brand">
          <span aria-hidden="true">◆</span> {t('console.title')}
        </p>
        <h1>{title}</h1>
        {intro ? <p className="muted">{intro}</p> : null}
        {children}
      </div>
    </main>
  );
}
