import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { precompress } from '../../vite-plugins/precompress';

/** The build's precompress plugin, run on a folder laid out like a build (assets/ under the out dir). */
describe('precompress (vite build plugin)', () => {
  it('writes brotli and gzip copies of each text file of 1 kB or more, and leaves the rest alone', () => {
    const root = mkdtempSync(join(tmpdir(), 'precompress-'));
    mkdirSync(join(root, 'dist', 'assets'), { recursive: true });
    const script = `export const rows = ${JSON.stringify(Array.from({ length: 300 }, (_, index) => ({ index })))};`;
    writeFileSync(join(root, 'dist', 'assets', 'app-1a2b.js'), script);
    writeFileSync(join(root, 'dist', 'assets', 'tiny-3c4d.js'), 'export {};');
    writeFileSync(join(root, 'dist', 'assets', 'logo-5e6f.png'), Buffer.alloc(4096, 1));

    const plugin = precompress() as { configResolved(config: unknown): void; closeBundle(): void };
    // A relative outDir, as vite.config.ts gives it: resolved against the root.
    plugin.configResolved({ root, build: { outDir: 'dist' } });
    plugin.closeBundle();

    const asset = join(root, 'dist', 'assets', 'app-1a2b.js');
    expect(brotliDecompressSync(readFileSync(`${asset}.br`)).toString()).toBe(script);
    expect(gunzipSync(readFileSync(`${asset}.gz`)).toString()).toBe(script);
    expect(readFileSync(`${asset}.br`).length).toBeLessThan(script.length / 4);
    for (const skipped of ['tiny-3c4d.js', 'logo-5e6f.png']) {
      expect(existsSync(join(root, 'dist', 'assets', `${skipped}.br`)), skipped).toBe(false);
      expect(existsSync(join(root, 'dist', 'assets', `${skipped}.gz`)), skipped).toBe(false);
    }
  });
});
