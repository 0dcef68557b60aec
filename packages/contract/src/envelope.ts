import { z } from 'zod';

/** The body of every API response: `{ code, msg, data }`, `code === "0"` meaning success. */
export const envelopeSchema = <T extends z.ZodType>(data: T) => z.object({ code: z.string(), msg: z.string(), data });

export const errorEnvelopeSchema = z.object({
  code: z.string().regex(/^\d{6}$/),
  msg: z.string().min(1),
  data: z.null(),
  requestId: z.string().optional(),
});

export type Envelope<T> = { code: string; msg: string; data: T };
