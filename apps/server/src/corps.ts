import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { agentCodeSchema, corpCodeSchema } from '@broker/contract';
import { motRankConfigSchema } from './mot-rank-config';

const agentSchema = z.object({ agentId: z.string().min(1), secret: z.string().min(1) });

/** As entered in WeCom's admin console (客户联系 › API › 接收事件服务器): the Token signs, the EncodingAESKey encrypts. */
const callbackSchema = z.object({
  token: z.string().regex(/^[A-Za-z0-9]{1,32}$/, "must be WeCom's callback Token: 1-32 letters or digits"),
  encodingAesKey: z.string().regex(/^[A-Za-z0-9]{43}$/, "must be WeCom's EncodingAESKey: 43 letters or digits"),
});

const corpSchema = z.object({
  code: corpCodeSchema,
  name: z.string().min(1),
  corpId: z.string().min(1),
  agents: z.record(agentCodeSchema, agentSchema),
  /** Absent: the endpoint answers 093003 and follower changes are not received. */
  callback: callbackSchema.optional(),
  /** ADR 0041; absent, or any part left out: the defaults. */
  motRank: motRankConfigSchema.optional(),
});

export const corpsFileSchema = z.array(corpSchema).min(1);
export type CorpConfigEntry = z.infer<typeof corpSchema>;
export type CallbackConfig = z.infer<typeof callbackSchema>;

export interface Corp extends CorpConfigEntry {
  /** In the `corp` table. */
  id: number;
}

/** Used when CORPS_FILE is unset; the WeCom emulator (standalone too) is given it, so both ends agree. */
export const BUILT_IN_CORP = {
  code: 'fxhl',
  name: '富兴证券（香港）',
  corpId: 'ww7a1f3c9e5b2d4f60',
  agents: {
    khzl: { agentId: '1000002', secret: 'emu-khzl-secret-5d1c2f8a9b7e4a01' },
    khgl: { agentId: '1000003', secret: 'emu-khgl-secret-8e2b6c4d1f9a7b02' },
    mot: { agentId: '1000004', secret: 'emu-mot-secret-3a9f7e1c5b2d8c03' },
  },
  callback: { token: 'emuCallbackToken7f3a9c1e', encodingAesKey: 'emuCallbackAesKey0123456789abcdefghijklmnop' },
} satisfies CorpConfigEntry;

export const defaultCorps: CorpConfigEntry[] = [BUILT_IN_CORP];

export function loadCorps(file: string | undefined): CorpConfigEntry[] {
  if (!file) return defaultCorps;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`CORPS_FILE=${file}: cannot read JSON (${(error as Error).message})`);
  }
  const parsed = corpsFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`CORPS_FILE=${file}: ${issue?.path.join('.')}: ${issue?.message}`);
  }
  return parsed.data;
}
