import { expect, test, vi } from 'vitest';

const init = vi.fn();
vi.mock('@sentry/react', () => ({ init }));

test('with a DSN, Sentry starts with the SPEC.md §9 options and drops non-Error rejections', async () => {
  const { initTracing } = await import('./tracing');
  await expect(initTracing('https://key@sentry.example.com/1')).resolves.toBe(true);
  expect(init).toHaveBeenCalledTimes(1);
  const options = init.mock.calls[0]![0] as {
    dsn: string;
    sampleRate: number;
    release: string;
    environment: string;
    ignoreErrors: string[];
    beforeSend: (event: unknown, hint: { originalException: unknown }) => unknown;
  };
  expect(options).toMatchObject({
    dsn: 'https://key@sentry.example.com/1',
    sampleRate: 0.3,
    release: '1.2.0',
    environment: 'prod',
    ignoreErrors: ['ResizeObserver loop limit exceeded'],
  });
  const rejectionEvent = { exception: { values: [{ mechanism: { type: 'auto.browser.global_handlers.onunhandledrejection' } }] } };
  expect(options.beforeSend(rejectionEvent, { originalException: 'cancelled' })).toBeNull();
  expect(options.beforeSend(rejectionEvent, { originalException: new Error('real') })).toBe(rejectionEvent);
});
