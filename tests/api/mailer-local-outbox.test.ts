import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { AppContext } from '../../server/context';
import { sendMail } from '../../server/domains/mail/mailer';

/** Without SMTP_URL every mail is written to DATA_DIR/outbox, so a shop owner trying the shop can read its codes. */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-mail-'));
const ctx = {
  env: { dataDir, MAIL_FROM: 'Shop <shop@example.com>', SMTP_URL: undefined },
  log: { info: () => undefined },
} as unknown as AppContext;

afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

it('writes each mail to the local outbox, also after the folder was removed while the shop ran', async () => {
  const first = await sendMail(ctx, { to: 'a@example.com', subject: 'First', text: 'one' });
  fs.rmSync(path.join(dataDir, 'outbox'), { recursive: true });
  const second = await sendMail(ctx, { to: 'b@example.com', subject: 'Second', text: 'two' });

  expect(path.dirname(second.outboxFile!)).toBe(path.join(dataDir, 'outbox'));
  expect(fs.existsSync(first.outboxFile!)).toBe(false);
  const written = fs.readFileSync(second.outboxFile!, 'utf8');
  expect(written).toContain('To: b@example.com');
  expect(written).toContain('Subject: Second');
});
