import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

interface Manifest {
  name?: string;
  version?: string;
  engines?: { node?: string };
}

const readManifest = (file: string): Manifest => JSON.parse(readFileSync(file, 'utf8')) as Manifest;

/** Every installed package.json under node_modules, nested copies included (npm checks each one it installs). */
function installedManifests(folder: string, found: Array<{ path: string; manifest: Manifest }> = []) {
  if (!existsSync(folder)) return found;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const dir = join(folder, entry.name);
    if (entry.name.startsWith('@')) {
      installedManifests(dir, found);
      continue;
    }
    const file = join(dir, 'package.json');
    if (existsSync(file)) found.push({ path: dir, manifest: readManifest(file) });
    installedManifests(join(dir, 'node_modules'), found);
  }
  return found;
}

/**
 * npm only warns (EBADENGINE) when a dependency needs a newer Node than the one installing it, and the
 * package then breaks at run time. The README promises the root `engines` range: every installed package
 * must accept its lowest version and the Node running this test.
 */
describe('installed dependencies run on the Node version the README names', () => {
  const rootRange = readManifest(join(ROOT, 'package.json')).engines?.node ?? '';
  const lowest = semver.minVersion(rootRange)?.version;

  test('the root package.json names a Node range', () => {
    expect(lowest, `package.json engines.node: ${JSON.stringify(rootRange)}`).toBeTruthy();
  });

  test('no installed package needs a newer Node (no EBADENGINE on install)', () => {
    const manifests = installedManifests(join(ROOT, 'node_modules'));
    expect(manifests.length).toBeGreaterThan(100);
    const refusing = manifests.flatMap(({ path, manifest }) => {
      const wanted = manifest.engines?.node;
      if (typeof wanted !== 'string' || semver.validRange(wanted) === null) return [];
      const refused = [lowest!, process.versions.node].filter((version) => !semver.satisfies(version, wanted, { includePrerelease: true }));
      return refused.length === 0 ? [] : [`${manifest.name}@${manifest.version} wants node ${wanted} (${path.slice(ROOT.length)})`];
    });
    expect(refusing, `pin a version that supports Node ${lowest} (root "overrides"), or raise engines and the README`).toEqual([]);
  });
});
