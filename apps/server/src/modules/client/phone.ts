/** Phone numbers in the forms the back office uses: `+852 9123 4567`, `+86 139 1234 5678`. Masking is @broker/domain's. */

/**
 * Normalises an entered number to the display form and its digits. Hong Kong (8 digits) and
 * mainland mobile (11 digits) numbers are regrouped; others keep the country code and their digits.
 */
export function normalisePhone(input: string): { phone: string; digits: string } {
  const digits = input.replace(/\D/g, '');
  if (digits.startsWith('852') && digits.length === 11) return { phone: `+852 ${digits.slice(3, 7)} ${digits.slice(7)}`, digits };
  if (digits.startsWith('86') && digits.length === 13)
    return { phone: `+86 ${digits.slice(2, 5)} ${digits.slice(5, 9)} ${digits.slice(9)}`, digits };
  return { phone: `+${input.replace(/^\+/, '').replace(/[ -]+/g, ' ').trim()}`, digits };
}
