type Listener = () => void;
const sessionInvalidListeners = new Set<Listener>();

/** The request layer's word that the session ended (080000/080001); signing in again is features/auth's, so no import cycle. */
export function announceSessionInvalid() {
  for (const listener of sessionInvalidListeners) listener();
}

/** Subscribes to "session invalid"; returns the unsubscribe. */
export function onSessionInvalid(listener: Listener): () => void {
  sessionInvalidListeners.add(listener);
  return () => sessionInvalidListeners.delete(listener);
}
