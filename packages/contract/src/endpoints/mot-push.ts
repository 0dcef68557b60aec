import { z } from 'zod';
import { appLanguageSchema } from '../common';
import { motEndpoint } from './mot';

/** The caller's MOT cards in WeCom (ADR 0042): on or off, and when they never arrive. */
export const motPushSettingSchema = z.object({
  /** True: a WeCom card when new MOT events arrive (the default); false: opted out. */
  push: z.boolean(),
  /** Hong Kong quiet hours (`HH:mm`, `from` to `until`, may wrap midnight); null when there are none. */
  quietHours: z.object({ from: z.string(), until: z.string() }).nullable(),
});
export type MotPushSetting = z.infer<typeof motPushSettingSchema>;

export const getMotPushSetting = motEndpoint({
  method: 'POST',
  path: '/api/mot/todoEventRule/getPush',
  payload: 'none',
  request: z.strictObject({}),
  response: motPushSettingSchema,
  summary: 'Whether the caller gets WeCom cards for new MOT events, and the quiet hours they never arrive in',
  silent: true,
});

export const setMotPushSetting = motEndpoint({
  method: 'POST',
  path: '/api/mot/todoEventRule/setPush',
  request: z
    .strictObject({
      push: z.boolean({ error: 'must be true or false' }).optional(),
      /** The language the caller's cards are written in, sent on a language change and each sign-in; in no answer (ADR 0032). */
      language: appLanguageSchema.optional(),
    })
    .refine((input) => input.push !== undefined || input.language !== undefined, 'must name push, language or both'),
  response: motPushSettingSchema,
  summary:
    'Opt in to or out of WeCom cards for new MOT events (opting out drops nothing already shown in the app), ' +
    'and the language the cards are written in',
});
