import pino, { type Logger } from 'pino';
import type { Env } from './env';

/** Headers and fields that carry credentials never reach the logs. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers.token',
  'req.headers.sign',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  'res.headers["refresh-token"]',
  'res.headers["refresh-sign"]',
  '*.password',
  '*.old_password',
  '*.new_password',
  '*.access_token',
  '*.access_sign',
  '*.token',
  '*.sign',
  '*.id_token',
  '*.refresh_token',
  '*.code',
  '*.dots',
  '*.cookie',
];

export function createLogger(env: Pick<Env, 'LOG_LEVEL' | 'NODE_ENV'>, destination?: pino.DestinationStream): Logger {
  const options = { level: env.LOG_LEVEL, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, base: { service: 'shop' } };
  return destination ? pino(options, destination) : pino(options);
}
