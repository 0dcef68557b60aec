import Fastify, { type FastifyServerOptions } from 'fastify';
import { wecomEmulatorPlugin } from './emulator.plugin';
import type { EmulatorOptions, EmulatorState } from './state';
import { DEFAULT_EMULATOR_CORP, EMULATOR_EXTERNAL_CONTACTS, EMULATOR_STAFF } from './directory';

/** The sandbox's WeCom directory: the default corp, its made-up staff and the contacts they follow. */
export const EMULATOR_DIRECTORY = {
  corps: [DEFAULT_EMULATOR_CORP],
  staff: EMULATOR_STAFF,
  externalContacts: EMULATOR_EXTERNAL_CONTACTS,
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
