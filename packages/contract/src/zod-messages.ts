import { z } from 'zod';

const describeType = (expected: string) => (expected === 'object' ? 'an object' : expected === 'array' ? 'a list' : `a ${expected}`);

/**
 * Plain-words messages for every schema of the contract, shared by server and web, so an error
 * reads "query.ccy: must be one of HKD, USD, CNY" rather than zod's internal phrasing.
 * A message given on a schema itself still wins.
 */
z.config({
  // In the browser zod must not compile parsers with `new Function`: the Content-Security-Policy has no
  // 'unsafe-eval', and even zod's guarded probe for eval fires a securitypolicyviolation report.
  // The server keeps the compiled (faster) parsers.
  jitless: 'document' in globalThis,
  customError: (issue) => {
    switch (issue.code) {
      case 'unrecognized_keys':
        return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${key}"`).join(', ')}`;
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
