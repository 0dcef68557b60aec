import Fastify from 'fastify';
import { wecomEmulatorPlugin } from './emulator.plugin';
import { DEFAULT_EMULATOR_CORP, EMULATOR_EXTERNAL_CONTACTS, EMULATOR_STAFF } from './directory';

/** Standalone emulator, for running several server replicas against one WeCom. */
const port = Number(process.env.WECOM_EMULATOR_PORT ?? 3100);
const host = process.env.WECOM_EMULATOR_HOST ?? '127.0.0.1';
const app = Fastify({ logger: { level: 'info' } });
await app.register(wecomEmulatorPlugin, {
  prefix: '/wecom',
  corps: [DEFAULT_EMULATOR_CORP],
  staff: EMULATOR_STAFF,
  externalContacts: EMULATOR_EXTERNAL_CONTACTS,
  // The server that receives the corps' change_external_contact callbacks, e.g. http://127.0.0.1:3000.
  ...(process.env.WECOM_EMULATOR_CALLBACK_BASE
    ? { callbackUrl: (corp: { code: string }) => `${process.env.WECOM_EMULATOR_CALLBACK_BASE}/api/wecom/callback/${corp.code}` }
    : {}),
});
await app.listen({ port, host });
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void app.close().then(() => process.exit(0)));
