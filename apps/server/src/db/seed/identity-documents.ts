import type { Prng } from './prng';
import { MAINLAND_REGIONS } from './reference-data';

export interface IdentityDocument {
  type: 'hkid' | 'mainland_id' | 'passport';
  /** Without punctuation (HKID with its check digit). */
  number: string;
}

const HKID_WEIGHTS = [9, 8, 7, 6, 5, 4, 3, 2];

/** One letter, six digits, check digit (mod 11, 10 → 'A'). */
export function hkid(rng: Prng): IdentityDocument {
  const letter = String.fromCharCode(65 + rng.pick([0, 3, 4, 10, 12, 17, 18, 21, 25]));
  let digits = '';
  for (let i = 0; i < 6; i++) digits += String(rng.int(0, 9));
  return { type: 'hkid', number: `${letter}${digits}${hkidCheckDigit(letter, digits)}` };
}

export function hkidCheckDigit(letter: string, digits: string): string {
  // A single-letter HKID is weighed as if preceded by a space (value 36).
  const values = [36, letter.charCodeAt(0) - 55, ...digits.split('').map(Number)];
  const sum = values.reduce((total, value, i) => total + value * HKID_WEIGHTS[i]!, 0);
  const check = (11 - (sum % 11)) % 11;
  return check === 10 ? 'A' : String(check);
}

const MAINLAND_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];

/** Birthday and sex match the customer. */
export function mainlandId(rng: Prng, birthday: string, male: boolean): IdentityDocument {
  const sequence = rng.int(0, 49) * 2 + (male ? 1 : 0);
  const body = `${rng.pick(MAINLAND_REGIONS)}${birthday.replaceAll('-', '')}${String(rng.int(0, 9))}${String(sequence).padStart(2, '0')}`;
  const sum = body.split('').reduce((total, digit, i) => total + Number(digit) * MAINLAND_WEIGHTS[i]!, 0);
  return { type: 'mainland_id', number: body + '10X98765432'[sum % 11]! };
}

export function passport(rng: Prng): IdentityDocument {
  let digits = '';
  for (let i = 0; i < 8; i++) digits += String(rng.int(0, 9));
  return { type: 'passport', number: `${rng.pick(['K', 'E', 'P', 'H'])}${digits}` };
}
