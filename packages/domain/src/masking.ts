/** What a screen may show of a phone, identity document and email: enough to recognise, not to read over a shoulder. */

/** The last four digits starred, everything else kept: `+852 9123 4567` → `+852 9123 ****`. No phone → null. */
export function maskPhone(phone: string | null | undefined): string | null {
  if (!phone) return null;
  const chars = [...phone];
  let hide = 4;
  for (let i = chars.length - 1; i >= 0 && hide > 0; i--) {
    if (/[0-9]/.test(chars[i]!)) {
      chars[i] = '*';
      hide--;
    }
  }
  return chars.join('');
}

/** An identity document number as the back office compares it: letters and digits only, upper case (`A123456(3)` → `A1234563`). */
export const normaliseIdNumber = (number: string) => number.replace(/[^0-9A-Za-z]/g, '').toUpperCase();

/**
 * Only the ends shown, length kept: from seven characters the first two and last four (`A123456(3)` → `A1**4563`),
 * shorter never more than half (`K1234` → `K***4`, `AB1234` → `A***34`).
 */
export function maskIdNumber(number: string): string {
  const clean = normaliseIdNumber(number);
  const shown = clean.length > 6 ? 6 : Math.floor(clean.length / 2);
  const head = clean.length > 6 ? 2 : Math.min(shown, 1);
  const tail = shown - head;
  return clean.slice(0, head) + '*'.repeat(clean.length - shown) + clean.slice(clean.length - tail);
}

/** The last four characters of the normalised number, kept beside the mask so staff can search by them. */
export const idNumberLast4 = (number: string) => normaliseIdNumber(number).slice(-4);
