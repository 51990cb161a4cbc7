import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../shared/context';
import { loadEnv } from '../../shared/env';
import { sendMail } from './mailer';

function contextWith(env: Record<string, string>): AppContext {
  return { env: loadEnv({ NODE_ENV: 'test', ...env }), log: pino({ level: 'silent' }) } as AppContext;
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-mail-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('sendMail', () => {
  it('writes to DATA_DIR/outbox when no SMTP server is configured', async () => {
    const delivery = await sendMail(contextWith({ DATA_DIR: dataDir }), {
      to: 'buyer@example.com',
      subject: 'Your code',
      text: 'Code: 123456',
    });
    expect(delivery.outboxFile).toContain(path.join(dataDir, 'outbox'));
    const stored = fs.readFileSync(delivery.outboxFile!, 'utf8');
    expect(stored).toContain('To: buyer@example.com');
    expect(stored).toContain('Code: 123456');
  });

  it('delivers through SMTP_URL to a real SMTP server', async () => {
    const received: string[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        let data = '';
        stream.on('data', (chunk) => (data += chunk));
        stream.on('end', () => {
          received.push(data);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as import('node:net').AddressInfo).port;
    try {
      await sendMail(contextWith({ DATA_DIR: dataDir, SMTP_URL: `smtp://127.0.0.1:${port}` }), {
        to: 'buyer@example.com',
        subject: '验证码',
        text: '您的验证码是 654321',
      });
      expect(received).toHaveLength(1);
      expect(received[0]).toContain('buyer@example.com');
    } finally {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });
});
