// The first render waits this long at most for the first page's chunk: a page rendered before it suspends, and
// React then holds it back for FALLBACK_THROTTLE_MS even once the chunk is in (ADR 0037).
export const FIRST_PAGE_WAIT_MS = 500;
