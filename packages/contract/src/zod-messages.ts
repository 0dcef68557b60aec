import { z } from 'zod';

const describeType = (expected: string) => (expected === 'object' ? 'an object' : expected === 'array' ? 'a list' : `a ${expected}`);

/** A message names this many unknown fields and counts the rest: a body of 10,000 keys is not echoed back. */
const MAX_NAMED_KEYS = 3;
const MAX_KEY_LENGTH = 32;

/** A client's key as a message may quote it: printable ASCII, bounded. */
const quoteKey = (key: string) =>
  `"${key.slice(0, MAX_KEY_LENGTH).replace(/[^\x20-\x7e]/g, '?')}${key.length > MAX_KEY_LENGTH ? '…' : ''}"`;

/** Plain-words messages for every schema ("query.ccy: must be one of HKD, USD, CNY"); a schema's own message still wins. */
z.config({
  // The browser's Content-Security-Policy has no 'unsafe-eval' (zod's probe for it alone fires a violation report).
  jitless: 'document' in globalThis,
  customError: (issue) => {
    switch (issue.code) {
      case 'unrecognized_keys': {
        const more = issue.keys.length - MAX_NAMED_KEYS;
        const named = issue.keys.slice(0, MAX_NAMED_KEYS).map(quoteKey).join(', ');
        return `unknown field${issue.keys.length > 1 ? 's' : ''} ${named}${more > 0 ? ` and ${more} more` : ''}`;
      }
      case 'invalid_type':
        if (issue.input === undefined) return 'is required';
        return `must be ${describeType(issue.expected)}`;
      case 'invalid_union':
        return issue.input === undefined ? 'is required' : undefined;
      case 'invalid_value':
        return `must be one of ${issue.values.map(String).join(', ')}`;
      case 'too_small':
        if (issue.origin === 'string')
          return Number(issue.minimum) <= 1 ? 'must not be empty' : `must be at least ${issue.minimum} characters`;
        if (issue.origin === 'array') return `must have at least ${issue.minimum} items`;
        return `must be ${issue.inclusive ? 'at least' : 'greater than'} ${issue.minimum}`;
      case 'too_big':
        if (issue.origin === 'string') return `must be at most ${issue.maximum} characters`;
        if (issue.origin === 'array') return `must have at most ${issue.maximum} items`;
        return `must be ${issue.inclusive ? 'at most' : 'less than'} ${issue.maximum}`;
      case 'invalid_format':
        return `must be a valid ${issue.format}`;
      default:
        return undefined;
    }
  },
});
