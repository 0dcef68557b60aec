import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { firstInvalidUtf8, jsonFieldAt, wholeNumberNotInDigits } from './json-body';

const strict = new TextDecoder('utf-8', { fatal: true });
const decodes = (bytes: Uint8Array) => {
  try {
    strict.decode(bytes);
    return true;
  } catch {
    return false;
  }
};

describe('firstInvalidUtf8', () => {
  it('agrees with the platform’s strict decoder on arbitrary bytes, and points where decoding stops', () => {
    // Mostly valid text with a few stray bytes, so the offset lands in the middle as often as not.
    const bytesArbitrary = fc
      .array(
        fc.oneof(
          fc.string({ unit: 'grapheme' }).map((text) => [...Buffer.from(text)]),
          fc.array(fc.integer({ min: 0x80, max: 0xff }), { maxLength: 3 }),
        ),
        {
          maxLength: 12,
        },
      )
      .map((chunks) => Uint8Array.from(chunks.flat()));
    fc.assert(
      fc.property(bytesArbitrary, (bytes) => {
        const offset = firstInvalidUtf8(bytes);
        expect(offset === -1).toBe(decodes(bytes));
        if (offset >= 0) {
          expect(decodes(bytes.subarray(0, offset))).toBe(true);
          // The sequence starting at offset is what fails: the prefix through it does not decode.
          expect(decodes(bytes.subarray(0, offset + 4 > bytes.length ? bytes.length : offset + 4))).toBe(false);
        }
      }),
      { numRuns: 2000, seed: 17_006 },
    );
  });

  it.each([
    ['overlong /', [0xc0, 0xaf], 0],
    ['overlong 3-byte', [0x61, 0xe0, 0x80, 0xaf], 1],
    ['surrogate', [0xed, 0xa0, 0x80], 0],
    ['beyond U+10FFFF', [0xf4, 0x90, 0x80, 0x80], 0],
    ['cut off', [0x61, 0x62, 0xe4, 0xb8], 2],
    ['lone continuation', [0x80], 0],
    ['valid 4-byte', [0xf0, 0x9f, 0x98, 0x80], -1],
    ['a U+FFFD written, then a stray byte', [0xef, 0xbf, 0xbd, 0x61, 0x80], 4],
  ])('%s', (_label, bytes, expected) => {
    expect(firstInvalidUtf8(Uint8Array.from(bytes))).toBe(expected);
  });
});

describe('jsonFieldAt', () => {
  const at = (json: string, marker = '§') => {
    const bytes = Buffer.from(json.replace(marker, ''), 'latin1');
    return jsonFieldAt(bytes, json.indexOf(marker));
  };
  it.each([
    ['{"remark": "ab§"}', 'body.remark'],
    ['{"a": {"b": [1, "x", "§"]}}', 'body.a.b.2'],
    ['{"a": 1, "b": "\\"§"}', 'body.b'],
    ['{"a": "x,y:z", "b": "§"}', 'body.b'],
    ['{"k§": 1}', 'body (a field name)'],
    ['{"a": {"k§": 1}}', 'body.a (a field name)'],
    ['{"a": 1§}', 'body'],
    ['{"a": §1}', 'body.a'],
    ['{"a": [1, §2]}', 'body.a.1'],
    ['§{"a": 1}', 'body'],
    ['["§"]', 'body.0'],
    [`${'['.repeat(20)}"§"`, `body.${Array(8).fill('0').join('.')}.…`],
  ])('%s → %s', (json, expected) => {
    expect(at(json)).toBe(expected);
  });
});

describe('wholeNumberNotInDigits', () => {
  it.each([
    ['{"a": 1e3}', '1e3'],
    ['{"a": [1, 12.0]}', '12.0'],
    ['{"a": 0.5e1}', '0.5e1'],
    ['{"a": "1e3", "b": 2, "c": 1.5, "d": 1e-7, "e": "x\\"1.0"}', null],
  ])('%s → %s', (json, token) => {
    expect(wholeNumberNotInDigits(json)?.token ?? null).toBe(token);
  });
});
