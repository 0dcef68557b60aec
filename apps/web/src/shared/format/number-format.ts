export const EMPTY_VALUE = '-';
/** The one minus sign: ASCII hyphen-minus, which pastes into a spreadsheet as a number (U+2212 would not). ADR 0048. */
export const MINUS = '-';

/** Thousands separators, optional fixed decimals (else the value's own), `-` for nothing (docs/spec.md §9). */
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
  return negative && /[1-9]/.test(result) ? `${MINUS}${result}` : result;
}

/** A ratio (0.125) as a percentage (`12.5%` with 1 decimal); `-` for nothing. */
export function formatPercent(ratio: number | null | undefined, decimals = 2): string {
  if (ratio === null || ratio === undefined || !Number.isFinite(ratio)) return EMPTY_VALUE;
  return `${formatNumber(ratio * 100, decimals)}%`;
}

/** A figure already in percent (`12.5` → `12.5%`), as the rules' facts carry them; `-` for nothing. */
export function formatPercentFigure(percent: number | string | null | undefined, decimals = 1): string {
  const text = formatNumber(percent, decimals);
  return text === EMPTY_VALUE ? text : `${text}%`;
}

/** A ratio (0.125) as a signed percentage (`+12.50%`, `-3.10%`). */
export function formatSignedPercent(ratio: number | null | undefined, decimals = 2): string {
  if (ratio === null || ratio === undefined || !Number.isFinite(ratio)) return EMPTY_VALUE;
  const text = formatNumber(ratio * 100, decimals);
  return `${ratio > 0 && /[1-9]/.test(text) ? '+' : ''}${text}%`;
}
