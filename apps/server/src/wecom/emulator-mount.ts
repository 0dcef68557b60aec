import type { FastifyInstance } from 'fastify';
import type { EmulatorState } from '@broker/wecom-emulator';
import { ApiError } from '../http/api-error';
import { whileConnected } from '../http/client-error';
import { staff } from '../db/schema';
import { DEMO_EXTERNAL_CONTACTS, DEMO_STAFF } from '../db/seed/reference-data';
import { impliedEmulatorRefusal } from '../wecom-mode-guard';

declare module 'fastify' {
  interface FastifyInstance {
    /** Emulator mode only; tests inspect and steer it. */
    wecomEmulator: EmulatorState | null;
  }
}

export interface EmulatorMountOptions {
  /** WECOM_MODE unset: a development set-up, this machine only (ADR 0016). */
  implied: boolean;
  /** Not for corps from CORPS_FILE, whose staff are real people (ADR 0016). */
  addDemoStaff: boolean;
  /** This server, as the admin console would be told. */
  callbackUrl: (corp: { code: string }) => string;
}

/**
 * The one place the WeCom emulator is loaded, and only in emulator mode (emulator-loading.test.ts), given the
 * configured corps, the demo's members and their external contacts.
 */
export async function mountWecomEmulator(app: FastifyInstance, options: EmulatorMountOptions) {
  const { wecomEmulatorPlugin } = await import('@broker/wecom-emulator/plugin');
  await app.register(
    async (scope) => {
      if (options.implied)
        scope.addHook(
          'onRequest',
          whileConnected(async (request) => {
            const refusal = impliedEmulatorRefusal({ headers: request.headers, peer: request.raw.socket.remoteAddress });
            if (refusal)
              throw ApiError.forbidden(
                `the WeCom emulator is not served here: ${refusal}. With WECOM_MODE unset it answers only this machine, ` +
                  'directly; set WECOM_MODE=emulator to expose it on purpose (ADR 0016)',
              );
          }),
        );
      await scope.register(wecomEmulatorPlugin, {
        corps: app.corps
          .all()
          .map(({ code, name, corpId, agents, callback }) => ({ code, name, corpId, agents, ...(callback ? { callback } : {}) })),
        callbackUrl: options.callbackUrl,
        staff: DEMO_STAFF,
        externalContacts: DEMO_EXTERNAL_CONTACTS,
        onState: (state) => {
          app.wecomEmulator = state;
        },
      });
    },
    { prefix: '/wecom' },
  );
  // Every emulated sign-in must map to a staff record.
  if (!options.addDemoStaff) return;
  for (const corp of app.corps.all()) {
    await app.database.db
      .insert(staff)
      .values(
        DEMO_STAFF.map(({ userid, name, email, mobile, position }) => ({
          corpId: corp.id,
          wecomUserId: userid,
          name,
          email,
          mobile,
          position,
        })),
      )
      .onConflictDoNothing({ target: [staff.corpId, staff.wecomUserId] });
  }
}
