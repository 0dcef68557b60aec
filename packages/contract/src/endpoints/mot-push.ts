import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { appLanguageSchema } from '../common';

/** The caller's MOT cards in WeCom (issue 24.2, ADR 0042): on or off, and when they never arrive. */
export const motPushSettingSchema = z.object({
  /** True: a WeCom card when new MOT events arrive (the default); false: opted out. */
  push: z.boolean(),
  /** Hong Kong quiet hours (`HH:mm`, `from` to `until`, may wrap midnight); null when there are none. */
  quietHours: z.object({ from: z.string(), until: z.string() }).nullable(),
});
export type MotPushSetting = z.infer<typeof motPushSettingSchema>;

export const getMotPushSetting = defineEndpoint({
  method: 'POST',
  path: '/api/mot/todoEventRule/getPush',
  agent: 'mot',
  auth: true,
  payload: 'none',
  request: z.strictObject({}),
  response: motPushSettingSchema,
  summary: 'Whether the caller gets WeCom cards for new MOT events, and the quiet hours they never arrive in',
  tag: 'mot',
  errors: [],
  silent: true,
});

export const setMotPushSetting = defineEndpoint({
  method: 'POST',
  path: '/api/mot/todoEventRule/setPush',
  agent: 'mot',
  auth: true,
  payload: 'json',
  request: z
    .strictObject({
      push: z.boolean({ error: 'must be true or false' }).optional(),
      /**
       * The language the caller uses the app in, which their cards are written in (zh-CN by default). The web
       * sends it when the manager changes the language (the "me" sheet) and with every sign-in (loginQywx).
       * Not in any answer: every response schema is first-screen JavaScript (the response checker, ADR 0032).
       */
      language: appLanguageSchema.optional(),
    })
    .refine((input) => input.push !== undefined || input.language !== undefined, 'must name push, language or both'),
  response: motPushSettingSchema,
  summary:
    'Opt in to or out of WeCom cards for new MOT events (opting out drops nothing already shown in the app), ' +
    'and the language the cards are written in',
  tag: 'mot',
  errors: [],
});
