import type { ServiceOutcomeCode } from '@broker/contract';
import { SERVICE_OUTCOME_CODES, SERVICE_OUTCOME_WORDS } from '../api/contract';
import { i18n } from '../i18n/i18n';

export { SERVICE_OUTCOME_CODES };

const isOutcomeCode = (value: string): value is ServiceOutcomeCode => SERVICE_OUTCOME_CODES.includes(value as ServiceOutcomeCode);

/**
 * The words chips saved before they saved codes (SERVICE_OUTCOME_WORDS): records are never rewritten (ADR 0038), so these are
 * mapped when read, and every reader sees them in their own language.
 */
const CHIP_WORDS = new Map<string, ServiceOutcomeCode>(
  SERVICE_OUTCOME_CODES.flatMap((code) => SERVICE_OUTCOME_WORDS[code].map((words) => [words, code] as const)),
);

/** The code an outcome stands for, or null for the manager's own words. */
export function outcomeCodeOf(outcome: string | null | undefined): ServiceOutcomeCode | null {
  if (outcome === null || outcome === undefined) return null;
  return isOutcomeCode(outcome) ? outcome : (CHIP_WORDS.get(outcome.trim()) ?? null);
}

/** An outcome as the reader sees it: a chip's (code or old words) in their language, a manager's own words as typed. */
export function outcomeText(outcome: string | null | undefined): string {
  const code = outcomeCodeOf(outcome);
  return code ? i18n.t(`outcome.${code}`) : (outcome ?? '');
}
