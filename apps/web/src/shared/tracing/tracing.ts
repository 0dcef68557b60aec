export const TRACING_OPTIONS = {
  sampleRate: 0.3,
  release: '1.2.0',
  environment: 'prod',
  ignoreErrors: ['ResizeObserver loop limit exceeded'],
} as const;

/** Rejections with something other than an Error are noise (cancelled dialogs, aborted gestures): drop them. */
export const isIgnoredRejection = (reason: unknown) => !(reason instanceof Error);

export function suppressNonErrorRejections(win: Window = window) {
  win.addEventListener('unhandledrejection', (event) => {
    if (isIgnoredRejection(event.reason)) event.preventDefault();
  });
}

let reportToSentry: ((error: Error, detail: string) => void) | undefined;

/** A fault the user sees only as a failure (e.g. a response off the contract): to the console and, with tracing on, to Sentry. */
export function reportProblem(error: Error, detail: string) {
  console.error(error, detail);
  reportToSentry?.(error, detail);
}

/** Sentry only when a DSN was configured at build time; the SDK is loaded lazily so it costs nothing otherwise. */
export async function initTracing(dsn: string | undefined = import.meta.env.VITE_SENTRY_DSN as string | undefined) {
  suppressNonErrorRejections();
  if (!dsn) return false;
  const Sentry = await import('@sentry/react');
  Sentry.init({
    dsn,
    ...TRACING_OPTIONS,
    ignoreErrors: [...TRACING_OPTIONS.ignoreErrors],
    beforeSend(event, hint) {
      const fromRejection = event.exception?.values?.some((value) => value.mechanism?.type?.includes('onunhandledrejection'));
      return fromRejection && isIgnoredRejection(hint.originalException) ? null : event;
    },
  });
  reportToSentry = (error, detail) => Sentry.captureException(error, { extra: { detail } });
  return true;
}
