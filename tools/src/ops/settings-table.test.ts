import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { SETTING_GROUPS } from '@broker/server';
import { README, withSettingsTable } from './settings-table';

/** The README between its settings markers. */
const section = (text: string) => text.slice(text.indexOf('<!-- settings:'), text.indexOf('<!-- settings end -->'));

describe("the README's configuration table (ADR 0059)", () => {
  test('is the one env.ts describes: run `npm run docs:settings` after changing a setting', async () => {
    const readme = readFileSync(README, 'utf8');
    expect(section(readme)).toBe(section(await withSettingsTable(readme)));
  });

  test('holds at most 30 settings, each described', () => {
    const described = Object.values(SETTING_GROUPS).flatMap((group) =>
      Object.entries(group).map(([name, schema]) => [name, (schema.meta() as { description?: string }).description ?? ''] as const),
    );
    expect(described.length).toBeLessThanOrEqual(30);
    expect(described.filter(([, description]) => description.length < 10)).toEqual([]);
  });
});
