import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { AppContext } from '../../context';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** A stable `<id@domain>` for a mail that may be sent again; nodemailer makes a random one otherwise. */
  messageId?: string;
}

export interface MailDelivery {
  messageId: string;
  /** Where a local copy went when no SMTP server is configured. */
  outboxFile?: string;
}

let smtpTransport: { url: string; transport: Transporter } | undefined;
/** Without SMTP: one transport that renders messages to bytes, and the outbox folders already made (a sale writes hundreds a second). */
let fileTransport: Transporter | undefined;
const madeFolders = new Set<string>();

/**
 * One connection per mail (a pool's idle connections kept mail servers, and our tests' fake
 * one, waiting on close). The timeouts keep a stalled mail server from holding a send for
 * long: the outbox retries a failed send later, while a send that never ends would hold its worker.
 */
function transportFor(url: string): Transporter {
  if (smtpTransport?.url !== url) {
    smtpTransport = {
      url,
      transport: nodemailer.createTransport({
        url,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
      }),
    };
  }
  return smtpTransport.transport;
}

/**
 * Sends through SMTP when SMTP_URL is set. Without it the message is written to
 * DATA_DIR/outbox as an .eml file and a log line says where, so a shop owner trying the
 * shop locally can still read the codes it sends.
 */
export async function sendMail(ctx: AppContext, mail: OutgoingMail): Promise<MailDelivery> {
  const message = { from: ctx.env.MAIL_FROM, ...mail };
  if (ctx.env.SMTP_URL) {
    const info = await transportFor(ctx.env.SMTP_URL).sendMail(message);
    return { messageId: info.messageId };
  }
  fileTransport ??= nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const info = await fileTransport.sendMail(message);
  const outbox = path.join(ctx.env.dataDir, 'outbox');
  const file = path.join(
    outbox,
    `${new Date().toISOString().replace(/[:.]/g, '-')}-${Math.random().toString(36).slice(2, 8)}.eml`,
  );
  if (!madeFolders.has(outbox)) await fs.mkdir(outbox, { recursive: true });
  madeFolders.add(outbox);
  await fs.writeFile(file, info.message as Buffer).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
    // The folder was removed while the shop ran (someone emptied DATA_DIR/outbox).
    await fs.mkdir(outbox, { recursive: true });
    await fs.writeFile(file, info.message as Buffer);
  });
  ctx.log.info({ to: mail.to, subject: mail.subject, file }, 'mail written to the local outbox (SMTP_URL is not set)');
  return { messageId: info.messageId, outboxFile: file };
}
