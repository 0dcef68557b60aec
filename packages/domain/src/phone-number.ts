/** A phone number as the back office stores it (`+852 9123 4567`), and every digit of it, country code first, for search. */
export interface NormalisedPhone {
  phone: string;
  digits: string;
}

/** Eight digits without `+` are a Hong Kong number; Hong Kong and mainland mobiles are regrouped, others keep their spacing. */
export function normalisePhone(input: string): NormalisedPhone {
  const entered = input.trim();
  const given = entered.replace(/\D/g, '');
  const digits = !entered.startsWith('+') && given.length === 8 ? `852${given}` : given;
  if (digits.startsWith('852') && digits.length === 11) return { phone: `+852 ${digits.slice(3, 7)} ${digits.slice(7)}`, digits };
  if (digits.startsWith('86') && digits.length === 13)
    return { phone: `+86 ${digits.slice(2, 5)} ${digits.slice(5, 9)} ${digits.slice(9)}`, digits };
  return { phone: `+${entered.replace(/^\+/, '').replace(/[ -]+/g, ' ').trim()}`, digits };
}
