import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';

/**
 * Features show numbers, percentages, prices, risk levels and dates only through shared/format (issue 22 §3):
 * this fails when a feature formats one itself, so the next screen cannot drift from the others.
 */
const FEATURES = resolve('apps/web/src/features');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Uses that are not showing a figure: a form splitting a moment into its date and time inputs. */
const NOT_DISPLAY = [{ file: 'contact/contact-form.ts', pattern: /hongKongDateTime/ }];

const AD_HOC: { rule: string; pattern: RegExp; unless?: RegExp }[] = [
  { rule: 'toFixed: formatNumber / formatPrice', pattern: /\.toFixed\(/ },
  { rule: 'toLocale…String: formatNumber / formatDate / formatDateTime', pattern: /\.toLocale(Date|Time)?String\(/ },
  { rule: 'Intl formatters: shared/format', pattern: /\bIntl\.(NumberFormat|DateTimeFormat|RelativeTimeFormat)\b/ },
  {
    rule: 'a date-time from @broker/domain shown as is: formatDateTime',
    pattern: /import\s*{[^}]*\bhongKongDateTime\b[^}]*}\s*from '@broker\/domain'/,
  },
  { rule: 'U+2212: the one minus sign is MINUS', pattern: /\u2212/ },
  // A bar's CSS width is a percentage too, but not one a reader sees.
  { rule: 'a percentage built by hand: formatPercent', pattern: /\*\s*100\b[^\n]*%|\$\{[^}]*\}%`/, unless: /width: `/ },
  { rule: 'a risk level built by hand: formatRiskLevel', pattern: /`R\$\{|'R\{\{level\}\}'/ },
];

test('features format numbers, prices, percentages, risk levels and dates only through shared/format', () => {
  const found: string[] = [];
  for (const file of sourceFiles(FEATURES)) {
    const name = relative(FEATURES, file);
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, index) => {
      if (NOT_DISPLAY.some((allowed) => allowed.file === name && allowed.pattern.test(line))) return;
      for (const { rule, pattern, unless } of AD_HOC)
        if (pattern.test(line) && !unless?.test(line)) found.push(`${name}:${index + 1} (${rule}): ${line.trim()}`);
    });
  }
  expect(found).toEqual([]);
});

test('the check can fail: each pattern catches the ad-hoc form it names', () => {
  const samples = [
    'x.toFixed(2)',
    'new Date(at).toLocaleString(lang)',
    'new Intl.NumberFormat()',
    "import { hongKongDateTime } from '@broker/domain';",
    '`\u221212%`',
    '{ratio * 100}%',
    '`R${level}`',
  ];
  samples.forEach((sample, index) => expect(AD_HOC[index]!.pattern.test(sample), sample).toBe(true));
});
