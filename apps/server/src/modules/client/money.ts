/** Rounds to cents, the precision every amount crosses the wire with. */
export const round2 = (value: number) => Math.round((value + Math.sign(value) * Number.EPSILON) * 100) / 100;

/**
 * Converts an amount in `currency` to HKD with rates in units per 1 HKD (amount_hkd = amount / rate).
 * HKD needs no rate; any other currency without one is a data error, not something to guess.
 */
export function toHkd(amount: number, currency: string, rates: Map<string, number>): number {
  if (currency === 'HKD') return amount;
  const rate = rates.get(currency);
  if (!rate) throw new Error(`no exchange rate for ${currency}`);
  return amount / rate;
}

/** HKD → `currency` (amount_ccy = amount_hkd × rate). */
export function fromHkd(amountHkd: number, currency: string, rates: Map<string, number>): number {
  if (currency === 'HKD') return amountHkd;
  const rate = rates.get(currency);
  if (!rate) throw new Error(`no exchange rate for ${currency}`);
  return amountHkd * rate;
}
