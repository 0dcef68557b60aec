import { buildEmulatorApp } from './emulator-app';

/** Standalone emulator, for running several server replicas against one WeCom. */
const port = Number(process.env.WECOM_EMULATOR_PORT ?? 3100);
const host = process.env.WECOM_EMULATOR_HOST ?? '127.0.0.1';
const { app } = await buildEmulatorApp(
  // The server that receives the corps' change_external_contact callbacks, e.g. http://127.0.0.1:3000.
  process.env.WECOM_EMULATOR_CALLBACK_BASE
    ? { callbackUrl: (corp: { code: string }) => `${process.env.WECOM_EMULATOR_CALLBACK_BASE}/api/wecom/callback/${corp.code}` }
    : {},
  { logger: { level: 'info' } },
);
await app.listen({ port, host });
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void app.close().then(() => process.exit(0)));
