import type { KeysUnder, TFunction } from '../../shared/i18n/translator';
import type { MotFacts, MotRule } from '@broker/contract';
import { formatNumber, formatPercentFigure } from '../../shared/format/number-format';
import { formatDateTime } from '../../shared/format/date-format';
import { formatPrice } from '../../shared/format/price-format';
import { formatRiskLevel } from '../../shared/format/risk-level';
import { nameInLanguage } from '../../shared/format/reference-name';
import type { Money } from '../../shared/format/use-money';

const text = (value: MotFacts[string] | undefined) => (value === null || value === undefined || value === '' ? '-' : String(value));
const money = (value: MotFacts[string] | undefined, decimals = 2) => formatNumber(typeof value === 'boolean' ? null : value, decimals);
/** An HKD fact (`amountHkd`, `thresholdHkd` …) in the chosen currency, by the client pages' one conversion (useMoney). */
const inChosen = (chosen: Money, value: MotFacts[string] | undefined, decimals = 2) =>
  chosen.format(typeof value === 'number' ? value : typeof value === 'string' && value !== '' ? Number(value) : null, decimals);
/** A price in the security's own currency, with its market's decimals (as the holdings page shows it): `412.200 HKD`. */
const price = (value: MotFacts[string] | undefined, facts: MotFacts) => {
  const shown = formatPrice(typeof value === 'boolean' ? null : value, typeof facts.symbol === 'string' ? facts.symbol : null);
  return facts.currency && shown !== '-' ? `${shown} ${text(facts.currency)}` : shown;
};
/** `2026-11-20T10:15:00` → `2026-11-20 10:15`. */
const when = (value: MotFacts[string] | undefined) => formatDateTime(typeof value === 'string' ? value : null);
/** A figure in percent (`12.34`) → `12.34%` (a list's subject: `12.3%`); a loss in a subject is written as one (`-12.3%`). */
const percent = (value: MotFacts[string] | undefined, sign = 1, decimals = 2) =>
  formatPercentFigure(typeof value === 'number' || (typeof value === 'string' && value !== '') ? sign * Number(value) : null, decimals);

const textOrNull = (value: MotFacts[string] | undefined) => (typeof value === 'string' ? value : null);
/** The security's name in the reader's language, from the names the rule stored with the event. */
const nameOf = (facts: MotFacts, language: string) =>
  nameInLanguage(
    { cn: textOrNull(facts.securityNameCn), hk: textOrNull(facts.securityNameHk), en: textOrNull(facts.securityNameEn) },
    language,
  );

function securityName(facts: MotFacts, language: string): string {
  const name = nameOf(facts, language);
  return name ? `${name}（${text(facts.symbol)}）` : text(facts.symbol);
}

function expiryWhen(t: TFunction, facts: MotFacts): string {
  const days = Number(facts.daysToExpiry);
  if (!Number.isFinite(days)) return '-';
  if (days === 0) return t('mot.reason.expiresToday');
  return days > 0 ? t('mot.reason.daysLeft', { count: days }) : t('mot.reason.daysAgo', { count: -days });
}

/** The security's name alone, for lists where its code would not fit. */
const shortSecurityName = (facts: MotFacts, language: string) => nameOf(facts, language) || text(facts.symbol);

/** The one detail that tells two events of a kind apart in a list (names, amounts, dates: nothing to translate). */
export function eventSubject(rule: MotRule, facts: MotFacts, language: string, chosen: Money): string {
  switch (rule) {
    case 'large_deposit':
    case 'large_withdrawal': {
      const booked = `${text(facts.currency)} ${money(facts.amount)}`;
      const equivalent = inChosen(chosen, facts.amountHkd, 0);
      return facts.currency === chosen.currency || equivalent === '-' ? booked : `${booked} (≈ ${chosen.currency} ${equivalent})`;
    }
    case 'transfer_in':
    case 'transfer_out':
      return `${shortSecurityName(facts, language)} × ${money(facts.quantity, 0)}`;
    case 'position_loss':
      return `${shortSecurityName(facts, language)} ${percent(facts.lossPct, -1, 1)}`;
    case 'birthday':
    case 'anniversary':
      return text(facts.date);
    case 'dormant':
      return text(facts.lastTradeDate);
    case 'unfunded':
      return text(facts.openDate);
    case 'id_expiry':
    case 'risk_expiry':
      return text(facts.expiryDate);
    case 'contact_removed':
      return when(facts.occurredAt);
    case 'follow_up':
      return text(facts.nextStep);
    case 'negative_equity':
      return `${chosen.currency} ${inChosen(chosen, facts.netAssetsHkd)}`;
    case 'concentration':
      return `${shortSecurityName(facts, language)} ${percent(facts.sharePct, 1, 1)}`;
    case 'particulars_changed_withdrawal':
      return `${text(facts.currency)} ${money(facts.amount)}`;
    case 'vulnerable_client':
      return facts.trigger === 'new_market'
        ? `${text(facts.market)} · ${shortSecurityName(facts, language)}`
        : `${text(facts.currency)} ${money(facts.amount)}`;
  }
}

/** Rules whose subject is the manager's own words (a next step), not a figure: a list may cut it short. */
export const subjectIsText = (rule: MotRule) => rule === 'follow_up';

/** Codes (`phone,email`, `HK,US`) named in the language: 手机号码、电邮 / phone number, email. */
const named = (t: TFunction, codes: MotFacts[string] | undefined, group: 'mot.particular' | 'mot.market') =>
  text(codes)
    .split(',')
    .map((code) => t(`${group}.${code}`, { defaultValue: code }))
    .join(t('mot.particular.separator'));

/** The markets a client traded before, named; none: "none (first trade)". */
const marketsNamed = (t: TFunction, markets: MotFacts[string] | undefined) =>
  markets ? named(t, markets, 'mot.market') : t('mot.market.none');

/** Which way the WeCom contact was lost: the customer deleted the manager, the manager the customer, or WeCom moved it. */
const contactChangeOf = (facts: MotFacts) =>
  facts.source === 'DELETE_BY_TRANSFER'
    ? 'transferred'
    : facts.changeType === 'del_external_contact'
      ? 'del_external_contact'
      : 'del_follow_user';

/** Which sentence says why: some rules have one per case (booked in the chosen currency, a final warning, how a contact was lost). */
function reasonKey(rule: MotRule, facts: MotFacts, ccy: string) {
  switch (rule) {
    case 'large_deposit':
    case 'large_withdrawal':
      return facts.currency === ccy ? (`mot.reason.${rule}_sameCcy` as const) : (`mot.reason.${rule}` as const);
    case 'id_expiry':
    case 'risk_expiry':
      return facts.warning === 'final' ? (`mot.reason.${rule}_final` as const) : (`mot.reason.${rule}` as const);
    case 'contact_removed':
      return `mot.reason.contact_removed.${contactChangeOf(facts)}` as const;
    case 'vulnerable_client':
      if (facts.trigger !== 'new_market') return 'mot.reason.vulnerable_client_withdrawal';
      return facts.previousMarkets ? 'mot.reason.vulnerable_client_market' : 'mot.reason.vulnerable_client_first_trade';
    default:
      return `mot.reason.${rule}` as const;
  }
}

/** Placeholders of the reason sentences that show their fact as it is. */
const TEXT_PLACEHOLDERS = [
  'date',
  'years',
  'lookaheadDays',
  'daysWithoutTrade',
  'dormantDays',
  'minLossPct',
  'openDate',
  'daysSinceOpen',
  'afterDays',
  'expiryDate',
  'assessedOn',
  'validYears',
  'nextStep',
  'recordId',
  'minSharePct',
  'daysBetween',
  'withinDays',
  'age',
  'minAge',
] as const;
/** The rules' HKD figures that the sentences name as they are (`netAssetsHkd` …), shown in the chosen currency. */
const HKD_PLACEHOLDERS = ['netAssetsHkd', 'cashHkd', 'marketValueHkd', 'shortfallHkd', 'positionHkd', 'assetsHkd'] as const;

/** Every placeholder any reason sentence names, read from the facts (a sentence takes the ones it names). */
function sentenceValues(t: TFunction, facts: MotFacts, language: string, chosen: Money) {
  const values: Record<string, string> = {
    ccy: chosen.currency,
    occurredAt: when(facts.occurredAt),
    changedAt: when(facts.changedAt),
    currency: text(facts.currency),
    amount: money(facts.amount),
    quantity: money(facts.quantity, 0),
    lossPct: money(facts.lossPct),
    sharePct: money(facts.sharePct),
    security: securityName(facts, language),
    lastPrice: price(facts.lastPrice, facts),
    avgCost: price(facts.avgCost, facts),
    lastTrade: facts.lastTradeDate ? text(facts.lastTradeDate) : t('mot.reason.dormantNever'),
    when: expiryWhen(t, facts),
    fields: named(t, facts.changedFields, 'mot.particular'),
    market: named(t, facts.market, 'mot.market'),
    previousMarkets: marketsNamed(t, facts.previousMarkets),
    converted: inChosen(chosen, facts.amountHkd),
    value: inChosen(chosen, facts.valueHkd),
    loss: inChosen(chosen, facts.lossHkd),
    // Thresholds in whole units; the large-amount sentences call theirs `threshold`.
    threshold: inChosen(chosen, facts.thresholdHkd, 0),
    thresholdHkd: inChosen(chosen, facts.thresholdHkd, 0),
    minLoss: inChosen(chosen, facts.minLossHkd, 0),
    minPositionHkd: inChosen(chosen, facts.minPositionHkd, 0),
  };
  for (const key of TEXT_PLACEHOLDERS) values[key] = text(facts[key]);
  for (const key of HKD_PLACEHOLDERS) values[key] = inChosen(chosen, facts[key]);
  return values;
}

/** Why the event fired, in one sentence: the rules' HKD figures in the chosen currency, a booked amount as booked. */
export const describeReason = (t: TFunction, rule: MotRule, facts: MotFacts, language: string, chosen: Money): string =>
  t(reasonKey(rule, facts, chosen.currency), sentenceValues(t, facts, language, chosen));

/** The facts worth a row each, per rule (ids and rule settings stay out: the reason sentence covers them). */
const FACT_ROWS: Record<MotRule, readonly KeysUnder<'mot.fact'>[]> = {
  birthday: ['birthday', 'date', 'years'],
  anniversary: ['openDate', 'date', 'years'],
  large_deposit: ['occurredAt', 'currency', 'amount', 'amountHkd', 'thresholdHkd', 'method'],
  large_withdrawal: ['occurredAt', 'currency', 'amount', 'amountHkd', 'thresholdHkd', 'method'],
  transfer_in: ['occurredAt', 'securityName', 'quantity', 'lastPrice', 'valueHkd', 'counterparty'],
  transfer_out: ['occurredAt', 'securityName', 'quantity', 'lastPrice', 'valueHkd', 'counterparty'],
  dormant: ['lastTradeDate', 'daysWithoutTrade', 'openDate'],
  position_loss: ['securityName', 'quantity', 'avgCost', 'lastPrice', 'lossPct', 'lossHkd'],
  unfunded: ['openDate', 'daysSinceOpen'],
  id_expiry: ['idDocType', 'expiryDate', 'daysToExpiry'],
  risk_expiry: ['riskLevel', 'assessedOn', 'expiryDate', 'daysToExpiry'],
  contact_removed: ['occurredAt', 'changeType'],
  follow_up: ['nextStep', 'recordId'],
  negative_equity: ['netAssetsHkd', 'cashHkd', 'marketValueHkd', 'shortfallHkd'],
  concentration: ['securityName', 'quantity', 'lastPrice', 'positionHkd', 'assetsHkd', 'sharePct'],
  particulars_changed_withdrawal: [
    'changedAt',
    'changedFields',
    'changedBy',
    'occurredAt',
    'currency',
    'amount',
    'amountHkd',
    'thresholdHkd',
    'method',
  ],
  vulnerable_client: ['age', 'occurredAt', 'market', 'securityName', 'previousMarkets', 'currency', 'amount', 'amountHkd', 'thresholdHkd'],
};

/** Rows that only one of a rule's triggers has (vulnerable_client: a withdrawal or a new market) are left out when absent. */
const OPTIONAL_FACT_ROWS = new Set(['market', 'securityName', 'previousMarkets', 'currency', 'amount', 'amountHkd', 'thresholdHkd']);

/** A row's fact under another name in the sentences. */
const SENTENCE_NAME: Partial<Record<string, string>> = { securityName: 'security', changedFields: 'fields', lastTradeDate: 'lastTrade' };

export function factRows(
  t: TFunction,
  rule: MotRule,
  facts: MotFacts,
  language: string,
  chosen: Money,
): { label: string; value: string }[] {
  // An amount booked in the chosen currency needs no equivalent in it.
  const shown =
    facts.currency === chosen.currency && facts.amount !== undefined
      ? FACT_ROWS[rule].filter((key) => key !== 'amountHkd')
      : FACT_ROWS[rule];
  const keys =
    rule === 'vulnerable_client'
      ? shown.filter((key) => !OPTIONAL_FACT_ROWS.has(key) || facts[key === 'securityName' ? 'symbol' : key] !== undefined)
      : shown;
  const inSentence = sentenceValues(t, facts, language, chosen);
  return keys.map((key) => {
    let value: string;
    // As the reason sentence reads the fact, except: percentages with their sign, every HKD figure to the cent, codes in words.
    if (key === 'lossPct' || key === 'sharePct') value = percent(facts[key]);
    // The rules' HKD figures (`…Hkd`): shown in the chosen currency, their labels naming it.
    else if (key.endsWith('Hkd')) value = inChosen(chosen, facts[key]);
    else if (key === 'riskLevel') value = formatRiskLevel(typeof facts.riskLevel === 'boolean' ? null : facts.riskLevel);
    else if (key === 'changedBy' && !facts.changedBy) value = t('mot.fact.changedBySystem');
    else if (key === 'changeType') value = t(`mot.contactChange.${contactChangeOf(facts)}`);
    else if (key === 'method' && facts.method) value = t(`mot.method.${text(facts.method)}`, { defaultValue: text(facts.method) });
    else value = inSentence[SENTENCE_NAME[key] ?? key] ?? text(facts[key]);
    return { label: t(`mot.fact.${key}`, { ccy: chosen.currency }), value };
  });
}
