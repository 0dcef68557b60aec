/*
 * At most this long, the first render waits for the first page's chunk. Rendered before it, the page suspends and
 * StartupFallback is committed; React then holds the page back until 300 ms after that fallback (its
 * FALLBACK_THROTTLE_MS), which on a cold visit delayed the client list by ~0.2 s although its chunk was in
 * (ADR 0037). On a slower load the fallback shows, as before. The e2e checks that it never shows sooner.
 */
export const FIRST_PAGE_WAIT_MS = 500;
