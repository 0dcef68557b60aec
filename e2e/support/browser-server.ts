import type { TestProject } from 'vitest/node';
import { chromium } from 'playwright-core';
import { browserLaunchOptions } from './browser';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's Chromium (playwright's browser server), which every e2e file connects to. */
    chromiumEndpoint: string;
  }
}

/** Vitest global setup of the e2e project: one Chromium for the run instead of one per file. */
export default async function setup(project: TestProject) {
  const server = await chromium.launchServer(browserLaunchOptions());
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return () => server.close();
}
