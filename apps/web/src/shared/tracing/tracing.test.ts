import { expect, test } from 'vitest';
import { TRACING_OPTIONS, initTracing, isIgnoredRejection } from './tracing';

test('tracing options follow SPEC.md §9', () => {
  expect(TRACING_OPTIONS).toEqual({ sampleRate: 0.3, release: '1.2.0', environment: 'prod', ignoreErrors: ['ResizeObserver loop limit exceeded'] });
});

test('no DSN, no Sentry', async () => {
  await expect(initTracing('')).resolves.toBe(false);
});

test('only rejections with an Error are reported', () => {
  expect(isIgnoredRejection('cancel')).toBe(true);
  expect(isIgnoredRejection(undefined)).toBe(true);
  expect(isIgnoredRejection({ code: 1 })).toBe(true);
  expect(isIgnoredRejection(new Error('boom'))).toBe(false);
});
