import { existsSync } from 'node:fs';

/**
 * Debian's chromium, the one browser the browser tests and the benchmark's Lighthouse use (never a
 * downloaded one: this machine has no internet beyond the package registries).
 */
export const DEBIAN_CHROMIUM_PATH = '/usr/bin/chromium';

/** Flags that keep it quiet on a machine without internet; one list, so the tests and Lighthouse stay in step. */
export const DEBIAN_CHROMIUM_FLAGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Why the browser cannot start here, or null. */
export function debianChromiumMissing(): string | null {
  return existsSync(DEBIAN_CHROMIUM_PATH) ? null : `Debian's chromium is not at ${DEBIAN_CHROMIUM_PATH} (apt-get install chromium)`;
}
