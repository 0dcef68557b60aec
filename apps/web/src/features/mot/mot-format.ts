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

/** Why the event fired, in one sentence: the rules' HKD figures in the chosen currency, a booked amount as booked. */
export function describeReason(t: TFunction, rule: MotRule, facts: MotFacts, language: string, chosen: Money): string {
  const ccy = chosen.currency;
  switch (rule) {
    case 'birthday':
    case 'anniversary':
      return t(`mot.reason.${rule}`, { date: text(facts.date), years: text(facts.years), lookaheadDays: text(facts.lookaheadDays) });
    case 'large_deposit':
    case 'large_withdrawal':
      return t(facts.currency === ccy ? `mot.reason.${rule}_sameCcy` : `mot.reason.${rule}`, {
        occurredAt: when(facts.occurredAt),
        currency: text(facts.currency),
        amount: money(facts.amount),
        ccy,
        converted: inChosen(chosen, facts.amountHkd),
        threshold: inChosen(chosen, facts.thresholdHkd, 0),
      });
    case 'transfer_in':
    case 'transfer_out':
      return t(`mot.reason.${rule}`, {
        occurredAt: when(facts.occurredAt),
        security: securityName(facts, language),
        quantity: money(facts.quantity, 0),
        ccy,
        value: inChosen(chosen, facts.valueHkd),
      });
    case 'dormant':
      return t('mot.reason.dormant', {
        daysWithoutTrade: text(facts.daysWithoutTrade),
        lastTrade: facts.lastTradeDate ? text(facts.lastTradeDate) : t('mot.reason.dormantNever'),
        dormantDays: text(facts.dormantDays),
      });
    case 'position_loss':
      return t('mot.reason.position_loss', {
        security: securityName(facts, language),
        lastPrice: price(facts.lastPrice, facts),
        avgCost: price(facts.avgCost, facts),
        lossPct: money(facts.lossPct),
        ccy,
        loss: inChosen(chosen, facts.lossHkd),
        minLossPct: text(facts.minLossPct),
        minLoss: inChosen(chosen, facts.minLossHkd, 0),
      });
    case 'unfunded':
      return t('mot.reason.unfunded', {
        openDate: text(facts.openDate),
        daysSinceOpen: text(facts.daysSinceOpen),
        afterDays: text(facts.afterDays),
      });
    case 'id_expiry':
      return t(facts.warning === 'final' ? 'mot.reason.id_expiry_final' : 'mot.reason.id_expiry', {
        expiryDate: text(facts.expiryDate),
        when: expiryWhen(t, facts),
      });
    case 'risk_expiry':
      return t(facts.warning === 'final' ? 'mot.reason.risk_expiry_final' : 'mot.reason.risk_expiry', {
        expiryDate: text(facts.expiryDate),
        assessedOn: text(facts.assessedOn),
        validYears: text(facts.validYears),
        when: expiryWhen(t, facts),
      });
    case 'contact_removed':
      return t(`mot.reason.contact_removed.${contactChangeOf(facts)}`, { occurredAt: when(facts.occurredAt) });
    case 'follow_up':
      return t('mot.reason.follow_up', { nextStep: text(facts.nextStep), recordId: text(facts.recordId) });
    case 'negative_equity':
      return t('mot.reason.negative_equity', {
        netAssetsHkd: inChosen(chosen, facts.netAssetsHkd),
        cashHkd: inChosen(chosen, facts.cashHkd),
        marketValueHkd: inChosen(chosen, facts.marketValueHkd),
        shortfallHkd: inChosen(chosen, facts.shortfallHkd),
        ccy,
      });
    case 'concentration':
      return t('mot.reason.concentration', {
        security: securityName(facts, language),
        positionHkd: inChosen(chosen, facts.positionHkd),
        sharePct: money(facts.sharePct),
        assetsHkd: inChosen(chosen, facts.assetsHkd),
        minSharePct: text(facts.minSharePct),
        minPositionHkd: inChosen(chosen, facts.minPositionHkd, 0),
        ccy,
      });
    case 'particulars_changed_withdrawal':
      return t('mot.reason.particulars_changed_withdrawal', {
        changedAt: when(facts.changedAt),
        fields: named(t, facts.changedFields, 'mot.particular'),
        occurredAt: when(facts.occurredAt),
        currency: text(facts.currency),
        amount: money(facts.amount),
        daysBetween: text(facts.daysBetween),
        withinDays: text(facts.withinDays),
        thresholdHkd: inChosen(chosen, facts.thresholdHkd, 0),
        ccy,
      });
    case 'vulnerable_client':
      return facts.trigger === 'new_market'
        ? t(facts.previousMarkets ? 'mot.reason.vulnerable_client_market' : 'mot.reason.vulnerable_client_first_trade', {
            age: text(facts.age),
            minAge: text(facts.minAge),
            occurredAt: when(facts.occurredAt),
            market: named(t, facts.market, 'mot.market'),
            security: securityName(facts, language),
            previousMarkets: marketsNamed(t, facts.previousMarkets),
          })
        : t('mot.reason.vulnerable_client_withdrawal', {
            age: text(facts.age),
            minAge: text(facts.minAge),
            occurredAt: when(facts.occurredAt),
            currency: text(facts.currency),
            amount: money(facts.amount),
            thresholdHkd: inChosen(chosen, facts.thresholdHkd, 0),
            ccy,
          });
  }
}

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
  return keys.map((key) => {
    let value: string;
    if (key === 'securityName') value = securityName(facts, language);
    else if (key === 'occurredAt') value = when(facts.occurredAt);
    else if (key === 'quantity') value = money(facts.quantity, 0);
    else if (key === 'lossPct') value = percent(facts.lossPct);
    else if (key === 'sharePct') value = percent(facts.sharePct);
    else if (key === 'riskLevel') value = formatRiskLevel(typeof facts.riskLevel === 'boolean' ? null : facts.riskLevel);
    else if (key === 'changedFields') value = named(t, facts.changedFields, 'mot.particular');
    else if (key === 'changedAt') value = when(facts.changedAt);
    else if (key === 'changedBy' && !facts.changedBy) value = t('mot.fact.changedBySystem');
    else if (key === 'market') value = named(t, facts.market, 'mot.market');
    else if (key === 'previousMarkets') value = marketsNamed(t, facts.previousMarkets);
    else if (key === 'lastTradeDate' && !facts.lastTradeDate) value = t('mot.reason.dormantNever');
    else if (key === 'amount') value = money(facts.amount);
    // The rules' HKD figures (`…Hkd`): shown in the chosen currency, their labels naming it.
    else if (key.endsWith('Hkd')) value = inChosen(chosen, facts[key]);
    else if (key === 'avgCost' || key === 'lastPrice') value = price(facts[key], facts);
    else if (key === 'changeType') value = t(`mot.contactChange.${contactChangeOf(facts)}`);
    else if (key === 'method' && facts.method) value = t(`mot.method.${text(facts.method)}`, { defaultValue: text(facts.method) });
    else value = text(facts[key]);
    return { label: t(`mot.fact.${key}`, { ccy: chosen.currency }), value };
  });
}
