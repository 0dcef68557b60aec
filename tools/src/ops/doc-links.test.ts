import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The committed markdown a reader opens: docs/ and every README. */
const documents = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '*.md'], { cwd: ROOT, encoding: 'utf8' })
  .split('\n')
  .filter((file) => file && !file.includes('node_modules/') && (file.startsWith('docs/') || file.endsWith('README.md')))
  .filter((file) => existsSync(join(ROOT, file)));

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

const anchorsOf = (text: string) => {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of text.matchAll(/^#{1,6} +(.+)$/gm)) {
    const base = anchorOf(heading!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count ? `${base}-${count}` : base);
  }
  for (const [, id] of text.matchAll(/<a id="([^"]+)"/g)) anchors.add(id!);
  return anchors;
};

/** Relative links `[text](target)` outside code blocks and inline code. */
const linksOf = (text: string) =>
  [
    ...text
      .replace(/```[\s\S]*?```/g, '')
      .replace(/`[^`\n]*`/g, '')
      .matchAll(/\]\(([^)\s]+)\)/g),
  ]
    .map(([, target]) => target!)
    .filter((target) => !/^[a-z]+:/i.test(target));

test('every relative link in docs/ and the READMEs opens a file (and its heading) in the repository', () => {
  expect(documents.length).toBeGreaterThan(10);
  const broken: string[] = [];
  for (const file of documents) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const link of linksOf(text)) {
      const [path, anchor] = link.split('#') as [string, string | undefined];
      const target = path ? join(dirname(join(ROOT, file)), decodeURI(path)) : join(ROOT, file);
      if (!existsSync(target)) broken.push(`${file}: ${link} (no such file)`);
      else if (anchor && target.endsWith('.md') && !anchorsOf(readFileSync(target, 'utf8')).has(anchor))
        broken.push(`${file}: ${link} (no such heading)`);
    }
  }
  expect(broken).toEqual([]);
});

test('the decisions index lists every decision record', () => {
  const folder = join(ROOT, 'docs', 'decisions');
  const index = readFileSync(join(folder, 'README.md'), 'utf8');
  const records = readdirSync(folder).filter((file) => /^\d{4}-.+\.md$/.test(file));
  expect(records.filter((file) => !index.includes(`](${file})`))).toEqual([]);
});
