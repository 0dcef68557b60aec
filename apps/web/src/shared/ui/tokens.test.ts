import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';

const SRC = resolve('apps/web/src');
const TOKENS = 'shared/ui/tokens.css';
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.(css|tsx?)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [relative(SRC, path)] : [];
  });

const HEX = /#(?:[0-9a-f]{8}|[0-9a-f]{6}|[0-9a-f]{3,4})\b/gi;
/** In scripts, a colour is a quoted hex string; a bare `#…` there is a comment or a URL fragment. */
const QUOTED_HEX = /['"`](#(?:[0-9a-f]{8}|[0-9a-f]{6}|[0-9a-f]{3,4}))['"`]/gi;

test('colours are written only in the token file (shared/ui/tokens.css): nowhere else a raw hex colour', () => {
  const raw = files(SRC)
    .filter((file) => file !== TOKENS)
    .flatMap((file) => {
      const text = readFileSync(join(SRC, file), 'utf8');
      const found = file.endsWith('.css') ? text.match(HEX) : [...text.matchAll(QUOTED_HEX)].map((match) => match[1]);
      return (found ?? []).map((hex) => `${file}: ${hex}`);
    });
  expect(raw).toEqual([]);
});

test('the token file holds at most 20 colours', () => {
  const colours = readFileSync(join(SRC, TOKENS), 'utf8').match(/^\s*--[\w-]+:\s*#[0-9a-f]+;/gim) ?? [];
  expect(colours.length).toBeGreaterThan(10);
  expect(colours.length).toBeLessThanOrEqual(20);
});
