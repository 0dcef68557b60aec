export const EMPTY_VALUE = '-';

/**
 * Thousands separators, optional fixed decimals, `-` for nothing (SPEC.md §9).
 * Without `decimals` the value keeps the decimals it has.
 */
export function formatNumber(value: number | string | null | undefined, decimals?: number): string {
  if (value === null || value === undefined || value === '') return EMPTY_VALUE;
  const number = typeof value === 'number' ? value : Number(String(value).replace(/,/g, ''));
  if (!Number.isFinite(number)) return EMPTY_VALUE;
  const text = decimals === undefined ? String(number) : number.toFixed(decimals);
  if (/e/i.test(text))
    return number.toLocaleString('en-US', { maximumFractionDigits: decimals ?? 20, minimumFractionDigits: decimals ?? 0 });
  const negative = text.startsWith('-');
  const [integer = '0', fraction] = (negative ? text.slice(1) : text).split('.');
  const grouped = integer.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const result = fraction === undefined ? grouped : `${grouped}.${fraction}`;
  return negative && /[1-9]/.test(result) ? `-${result}` : result;
}
