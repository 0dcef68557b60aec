/**
 * A phone number as the back office stores it: `+852 9123 4567`, `+86 139 1234 5678`, and its digits
 * (country code included) for search. Masking is `maskPhone`'s (masking.ts).
 */
export interface NormalisedPhone {
  /** The display form: `+`, the country code, the number grouped as it is read aloud. */
  phone: string;
  /** Every digit of the display form, country code first: what a search by phone compares. */
  digits: string;
}

/**
 * Normalises an entered number. Eight digits with no `+` are a Hong Kong number (the back office's
 * files write them so); Hong Kong (852 + 8 digits) and mainland mobile (86 + 11 digits) numbers are
 * regrouped; any other keeps its country code and digits, with runs of spaces and dashes made one space.
 */
export function normalisePhone(input: string): NormalisedPhone {
  const entered = input.trim();
  const given = entered.replace(/\D/g, '');
  const digits = !entered.startsWith('+') && given.length === 8 ? `852${given}` : given;
  if (digits.startsWith('852') && digits.length === 11) return { phone: `+852 ${digits.slice(3, 7)} ${digits.slice(7)}`, digits };
  if (digits.startsWith('86') && digits.length === 13)
    return { phone: `+86 ${digits.slice(2, 5)} ${digits.slice(5, 9)} ${digits.slice(9)}`, digits };
  return { phone: `+${entered.replace(/^\+/, '').replace(/[ -]+/g, ' ').trim()}`, digits };
}
