import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { forTheScope } from './scope';

export interface ReceivedMail {
  /** The envelope's recipients, comma-separated. */
  to: string;
  /** The message as sent: headers and encoded body. */
  raw: string;
}

export interface FakeSmtp {
  /** For SMTP_URL. */
  url: string;
  /** Every message received so far, oldest first; tests may remove entries. */
  inbox: ReceivedMail[];
  /** The newest message matching `accept`, waiting up to `timeoutMs` for it to arrive. */
  waitFor(accept: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/**
 * How the fake server answers a message: take it (250, into the inbox), refuse it with an
 * SMTP error, or hold it unanswered. As SMTP has it, only a taken message was delivered: a
 * held one whose sender goes away never was, and the sender must send it again.
 */
export type FakeSmtpAnswer = 'take' | 'hold' | { refuse: string; code: number };

/** A local SMTP server that keeps what it receives, for the shop's SMTP_URL; `answer` decides per message, and may take its time (default: take at once). */
export async function startFakeSmtp(
  answer: (raw: string) => FakeSmtpAnswer | Promise<FakeSmtpAnswer> = () => 'take',
): Promise<FakeSmtp> {
  const inbox: ReceivedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk) => (raw += chunk));
      stream.on('end', () => {
        void Promise.resolve(answer(raw)).then((decision) => {
          if (decision === 'hold') return;
          if (decision !== 'take')
            return callback(Object.assign(new Error(decision.refuse), { responseCode: decision.code }));
          inbox.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address).join(','), raw });
          callback();
        });
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    inbox,
    async waitFor(accept, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = [...inbox].reverse().find(accept);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no matching mail after ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}

/**
 * The text of a message as a reader sees it: its encoded-word subject, its quoted-printable
 * body and its base64 parts, decoded.
 */
export function decodedMail(raw: string): string {
  const bytes = (text: string) => Buffer.from(text, 'latin1');
  const unQuote = (text: string) =>
    text
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_whole, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  const subject = [...raw.matchAll(/=\?UTF-8\?([BQ])\?([^?]*)\?=/gi)]
    .map(([word, kind, text]) => {
      if (kind === undefined || text === undefined) throw new Error(`encoded word without a kind or text: ${word}`);
      return (
        kind.toUpperCase() === 'B' ? Buffer.from(text, 'base64') : bytes(unQuote(text.replace(/_/g, ' ')))
      ).toString('utf8');
    })
    .join('');
  const base64Parts = [
    ...[...raw.matchAll(/\r?\n\r?\n([A-Za-z0-9+/=\r\n]{20,})/g)].map((match) => {
      const block = match[1];
      if (block === undefined) throw new Error(`base64 part without its block: ${match[0]}`);
      return block;
    }),
    ...(raw.match(/(?:^[A-Za-z0-9+/=]{16,}\r?\n)+/gm) ?? []),
  ].map((block) => Buffer.from(block.replace(/\s/g, ''), 'base64').toString('utf8'));
  return [subject, bytes(unQuote(raw)).toString('utf8'), ...base64Parts].join('\n');
}

/** `startFakeSmtp` for every test of the file, started before the hooks registered after this call. */
export function useFakeSmtp(answer?: Parameters<typeof startFakeSmtp>[0]): FakeSmtp {
  const current = forTheScope('the fake SMTP server', () => startFakeSmtp(answer));
  return {
    get url() {
      return current().url;
    },
    get inbox() {
      return current().inbox;
    },
    waitFor: (accept, timeoutMs) => current().waitFor(accept, timeoutMs),
    close: () => current().close(),
  };
}
