import { z } from 'zod';

/** SPEC section 8: every API answer is `{code, msg, data}`; code 200 is success. */
export interface Envelope<T> {
  code: 200 | (number & {});
  msg: string;
  data: T;
}

export function ok<T>(data: T, msg = 'ok'): { code: 200; msg: string; data: T } {
  return { code: 200, msg, data };
}

export function failure(code: number, msg: string): Envelope<null> {
  return { code, msg, data: null };
}

/** Response schema of a successful call, for serialization and the OpenAPI document. */
export function envelopeOf<T extends z.ZodType>(data: T) {
  return z.object({ code: z.literal(200), msg: z.string(), data });
}

export const errorEnvelope = z.object({ code: z.number().int(), msg: z.string(), data: z.null() });
