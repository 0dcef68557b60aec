import Fastify, { type FastifyServerOptions } from 'fastify';
import { wecomEmulatorPlugin } from './emulator.plugin';
import type { EmulatorOptions, EmulatorState } from './state';
// The server owns the demo's directory; the standalone emulator and these tests stand in for the same WeCom.
import { BUILT_IN_CORP } from '../../server/src/corps';
import { DEMO_EXTERNAL_CONTACTS, DEMO_STAFF } from '../../server/src/db/seed/reference-data';

/** The sandbox's WeCom directory: the server's built-in corp, the demo's members and the contacts they follow. */
export const EMULATOR_DIRECTORY = {
  corps: [BUILT_IN_CORP],
  staff: DEMO_STAFF,
  externalContacts: DEMO_EXTERNAL_CONTACTS,
} satisfies EmulatorOptions;

/**
 * The emulator on a Fastify of its own, under `/wecom`, over the sandbox directory unless `options`
 * say otherwise: a WeCom apart from any server (the standalone process, tests), ready to inject or listen.
 */
export async function buildEmulatorApp(options: Partial<EmulatorOptions> = {}, server: FastifyServerOptions = {}) {
  const app = Fastify(server);
  let state: EmulatorState | undefined;
  await app.register(wecomEmulatorPlugin, {
    prefix: '/wecom',
    ...EMULATOR_DIRECTORY,
    ...options,
    onState: (emulated) => {
      state = emulated;
    },
  });
  await app.ready();
  return { app, state: state! };
}
