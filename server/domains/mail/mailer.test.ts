import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../context';
import { loadEnv } from '../../shared/env';
import { startFakeSmtp } from '../../../tests/support/mail';
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
    const smtp = await startFakeSmtp();
    try {
      await sendMail(contextWith({ DATA_DIR: dataDir, SMTP_URL: smtp.url }), {
        to: 'buyer@example.com',
        subject: '验证码',
        text: '您的验证码是 654321',
      });
      expect(smtp.inbox).toHaveLength(1);
      expect(smtp.inbox[0]?.to).toBe('buyer@example.com');
      expect(smtp.inbox[0]?.raw).toContain('buyer@example.com');
    } finally {
      await smtp.close();
    }
  });
});
