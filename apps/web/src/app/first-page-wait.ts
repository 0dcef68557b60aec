/*
 * At most this long, the first render waits for the first page's chunk. Rendered before it, the page suspends, and
 * React then holds it back for its FALLBACK_THROTTLE_MS after the fallback even once the chunk is in (ADR 0037).
 */
export const FIRST_PAGE_WAIT_MS = 500;
