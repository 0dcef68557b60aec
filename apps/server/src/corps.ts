import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { agentCodeSchema, corpCodeSchema, type AgentCode } from '@broker/contract';
import { DEFAULT_EMULATOR_CORP } from '@broker/wecom-emulator';
import { motRankConfigSchema } from './mot-rank-config';

const agentSchema = z.object({ agentId: z.string().min(1), secret: z.string().min(1) });

/**
 * The corp's callback settings (WeCom admin console › 客户联系 › API › 接收事件服务器), exactly as
 * entered there: WeCom signs every callback with the Token and encrypts it with the EncodingAESKey.
 */
const callbackSchema = z.object({
  token: z.string().regex(/^[A-Za-z0-9]{1,32}$/, "must be WeCom's callback Token: 1-32 letters or digits"),
  encodingAesKey: z.string().regex(/^[A-Za-z0-9]{43}$/, "must be WeCom's EncodingAESKey: 43 letters or digits"),
});

const corpSchema = z.object({
  code: corpCodeSchema,
  name: z.string().min(1),
  corpId: z.string().min(1),
  agents: z.record(agentCodeSchema, agentSchema),
  /** Absent: the callback endpoint answers 093003 for this corp and follower changes are not received. */
  callback: callbackSchema.optional(),
  /** The MOT ranked day's weights (ADR 0041); absent, or any part left out: the defaults. */
  motRank: motRankConfigSchema.optional(),
});

export const corpsFileSchema = z.array(corpSchema).min(1);
export type CorpConfigEntry = z.infer<typeof corpSchema>;
export type AgentConfig = z.infer<typeof agentSchema>;
export type CallbackConfig = z.infer<typeof callbackSchema>;

/** A configured corp as the running app knows it: its settings and its row in the `corp` table. */
export interface Corp extends CorpConfigEntry {
  /** Row id in the `corp` table. */
  id: number;
}

/** The corp the emulator knows out of the box: code `fxhl`, agents `khzl`, `khgl`, `mot`. */
export const defaultCorps: CorpConfigEntry[] = [
  {
    code: DEFAULT_EMULATOR_CORP.code,
    name: DEFAULT_EMULATOR_CORP.name,
    corpId: DEFAULT_EMULATOR_CORP.corpId,
    agents: DEFAULT_EMULATOR_CORP.agents,
    callback: DEFAULT_EMULATOR_CORP.callback,
  },
];

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

export function agentOf(corp: CorpConfigEntry, agentCode: AgentCode): AgentConfig | undefined {
  return corp.agents[agentCode];
}
