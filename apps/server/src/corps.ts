import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { agentCodeSchema, corpCodeSchema, type AgentCode } from '@broker/contract';
import { DEFAULT_EMULATOR_CORP } from '@broker/wecom-emulator';

const agentSchema = z.object({ agentId: z.string().min(1), secret: z.string().min(1) });

const corpSchema = z.object({
  code: corpCodeSchema,
  name: z.string().min(1),
  corpId: z.string().min(1),
  agents: z.record(agentCodeSchema, agentSchema),
});

export const corpsFileSchema = z.array(corpSchema).min(1);
export type CorpConfigEntry = z.infer<typeof corpSchema>;
export type AgentConfig = z.infer<typeof agentSchema>;

/** The corp the emulator knows out of the box: code `fxhl`, agents `khzl`, `khgl`, `mot`. */
export const defaultCorps: CorpConfigEntry[] = [
  {
    code: DEFAULT_EMULATOR_CORP.code,
    name: DEFAULT_EMULATOR_CORP.name,
    corpId: DEFAULT_EMULATOR_CORP.corpId,
    agents: DEFAULT_EMULATOR_CORP.agents,
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
