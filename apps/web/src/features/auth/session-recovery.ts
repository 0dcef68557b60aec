import { onSessionInvalid } from '../../shared/api/session-events';

/** The re-login is needed only once a session ends (or at start-up without a token): not first-screen code. */
const relogin = () => import('./relogin');

/** Drops the token and signs in again (see relogin.ts); one at a time. */
export const startRelogin = (): Promise<void> => relogin().then((module) => module.startRelogin());

/** The auth feature's answer to the request layer's "session invalid": sign in again. Returns the unsubscribe. */
export function installSessionRecovery(): () => void {
  return onSessionInvalid(() => void startRelogin().catch(() => undefined));
}
