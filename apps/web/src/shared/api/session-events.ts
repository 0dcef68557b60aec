type Listener = () => void;
const sessionInvalidListeners = new Set<Listener>();

/**
 * The request layer's word that the server no longer knows this session (080000/080001). It only
 * announces: signing in again is the auth feature's (features/auth, installed at start-up), so the
 * request layer never imports what calls it back.
 */
export function announceSessionInvalid() {
  for (const listener of sessionInvalidListeners) listener();
}

/** Subscribes to "session invalid"; returns the unsubscribe. */
export function onSessionInvalid(listener: Listener): () => void {
  sessionInvalidListeners.add(listener);
  return () => sessionInvalidListeners.delete(listener);
}
