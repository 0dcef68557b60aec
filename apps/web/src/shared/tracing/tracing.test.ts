import { expect, test } from 'vitest';
import { TRACING_OPTIONS, initTracing, isIgnoredRejection, suppressNonErrorRejections } from './tracing';

test('tracing options follow SPEC.md §9', () => {
  expect(TRACING_OPTIONS).toEqual({
    sampleRate: 0.3,
    release: '1.2.0',
    environment: 'prod',
    ignoreErrors: ['ResizeObserver loop limit exceeded'],
  });
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

test('non-Error unhandled rejections are suppressed, Errors are not', () => {
  suppressNonErrorRejections(window);
  const rejection = (reason: unknown) => Object.assign(new Event('unhandledrejection', { cancelable: true }), { reason });
  const quiet = rejection('cancel');
  window.dispatchEvent(quiet);
  expect(quiet.defaultPrevented).toBe(true);
  const loud = rejection(new Error('boom'));
  window.dispatchEvent(loud);
  expect(loud.defaultPrevented).toBe(false);
});
