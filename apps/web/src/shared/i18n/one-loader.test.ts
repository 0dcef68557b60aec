import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';

const SRC = resolve('apps/web/src');
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });

// One i18n loader (issue 20 §4): every feature's strings go in through registerLocales (shared/i18n/i18n.ts).
test('only shared/i18n/i18n.ts adds strings to i18n', () => {
  const adders = files(SRC)
    .filter((file) => /\.addResource(Bundle|s)?\(/.test(readFileSync(file, 'utf8')))
    .map((file) => relative(SRC, file));
  expect(adders).toEqual(['shared/i18n/i18n.ts']);
});
