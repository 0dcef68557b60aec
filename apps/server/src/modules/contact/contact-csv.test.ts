import { describe, expect, it } from 'vitest';
import { csvField } from './contact-csv';

describe('contact log CSV fields', () => {
  it('quotes every field and doubles its quotes (RFC 4180), newlines kept inside the quotes', () => {
    expect(csvField('plain')).toBe('"plain"');
    expect(csvField('say "hi", then go\r\nnext line')).toBe('"say ""hi"", then go\r\nnext line"');
    expect(csvField(null)).toBe('""');
    expect(csvField(12)).toBe('"12"');
    expect(csvField(false)).toBe('"false"');
  });

  it.each(['=1+1', '+41 22', '-2', '@SUM(A1)', '\tcmd', '\rcmd', '=HYPERLINK("http://x","y")'])(
    'keeps %j from running as a spreadsheet formula: a leading apostrophe',
    (text) => {
      const field = csvField(text);
      expect(field.startsWith(`"'`)).toBe(true);
      expect(field.slice(2, -1).replace(/""/g, '"')).toBe(text);
    },
  );

  it('leaves text that only contains those characters later alone', () => {
    expect(csvField('a=b, c+d, e-f @g')).toBe('"a=b, c+d, e-f @g"');
    expect(csvField('客户说：=好')).toBe('"客户说：=好"');
  });
});
