import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import type { z } from 'zod';
import { SETTING_GROUPS } from '@broker/server';

/** `npm run docs:settings`: the README's settings table from their one description in apps/server/src/env.ts (ADR 0059). */
export const README = fileURLToPath(new URL('../../../README.md', import.meta.url));
const START = '<!-- settings: generated from apps/server/src/env.ts by `npm run docs:settings`; edit the descriptions there -->';
const END = '<!-- settings end -->';

function shownDefault(schema: z.ZodType<string | number | boolean | undefined>): string {
  const meta = schema.meta() as { shownDefault?: string } | undefined;
  if (meta?.shownDefault) return meta.shownDefault;
  const parsed = schema.safeParse(undefined);
  return parsed.success && parsed.data !== undefined ? `\`${String(parsed.data)}\`` : '—';
}

/** The table's Markdown: one heading and table per group, in env.ts's order. */
export function settingsTable(): string {
  return Object.entries(SETTING_GROUPS)
    .map(([group, settings]) => {
      const rows = Object.entries(settings).map(([name, schema]) => {
        const { description } = schema.meta() as { description: string };
        return `| \`${name}\` | ${shownDefault(schema)} | ${description} |`;
      });
      return [`#### ${group}`, '', '| variable | default | meaning |', '| --- | --- | --- |', ...rows].join('\n');
    })
    .join('\n\n');
}

/** `text` (the README) with the generated table between its markers, formatted as `prettier --check` wants it. */
export async function withSettingsTable(text: string): Promise<string> {
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md has no settings markers (${START} … ${END})`);
  const replaced = `${text.slice(0, start + START.length)}\n\n${settingsTable()}\n\n${text.slice(end)}`;
  return prettier.format(replaced, { ...(await prettier.resolveConfig(README)), filepath: README });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const before = readFileSync(README, 'utf8');
  const after = await withSettingsTable(before);
  writeFileSync(README, after);
  console.log(after === before ? 'README.md: settings table already up to date' : 'README.md: settings table written');
}
