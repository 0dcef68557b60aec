import { getAppSettings } from '../session/app-settings-store';
import { hasUsableToken, useUser } from '../session/user-store';

/*
 * Who drafts belong to, how long they last, and the sweep (ADR 0013), apart from the forms' reads and writes (draft-store.ts) so the
 * first screen carries only this. A draft belongs to one staff member of one corp: when someone else signs in on this browser, every
 * other owner's drafts go (a shared PC). It lives in localStorage and sessionStorage (which outlasts WeCom's Mac sidebar reload; the
 * newer copy wins), expires DRAFT_TTL_MS after its last write, and is removed once saved.
 */

export const DRAFT_TTL_MS = 24 * 60 * 60 * 1000;
const PREFIX = 'draft:';
/** WeCom userids are letters, digits, `_ - . @`, at most 64. */
const USER_ID = /^[\w.@-]{1,64}$/;

export interface StoredDraft<T> {
  data: T;
  savedAt: number;
  /** Written as the save was sent: the save did not finish (e.g. the session had expired). */
  submitting: boolean;
}

export const storages = (): Storage[] => {
  const found: Storage[] = [];
  for (const get of [() => window.localStorage, () => window.sessionStorage]) {
    try {
      found.push(get());
    } catch {
      // Storage disabled (private mode, policy): drafts are a courtesy, the app works without them.
    }
  }
  return found;
};

/** The staff member last signed in on this browser (their token may have expired), or null. */
export function lastOwner(): string | null {
  const { userId } = useUser.getState();
  return typeof userId === 'string' && USER_ID.test(userId) ? `${getAppSettings().corpCode}/${userId}` : null;
}

/** The signed-in staff member drafts belong to, or null (nobody signed in, or not known yet). */
export function draftOwner(): string | null {
  return hasUsableToken() ? lastOwner() : null;
}

export const storageKey = (owner: string, key: string) => `${PREFIX}${owner}:${key}`;

export function parse(raw: string | null, now: number): StoredDraft<unknown> | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<StoredDraft<unknown>> | null;
    if (!value || typeof value !== 'object' || typeof value.savedAt !== 'number' || !('data' in value)) return null;
    // Expired, or from a clock that is wrong by more than a minute: not trusted to be the user's.
    if (value.savedAt <= now - DRAFT_TTL_MS || value.savedAt > now + 60_000) return null;
    return { data: value.data, savedAt: value.savedAt, submitting: value.submitting === true };
  } catch {
    return null;
  }
}

export const keysOf = (storage: Storage) => Array.from({ length: storage.length }, (_, index) => storage.key(index) ?? '');

/** Removes expired or unreadable drafts and every one not `keepOwner`'s (all when null): at start, at a new sign-in, at sign-out. */
export function sweepDrafts(keepOwner: string | null = draftOwner(), now = Date.now()): void {
  for (const storage of storages()) {
    for (const key of keysOf(storage).filter((name) => name.startsWith(PREFIX))) {
      const mine = keepOwner !== null && key.startsWith(`${PREFIX}${keepOwner}:`);
      if (!mine || !parse(storage.getItem(key), now)) storage.removeItem(key);
    }
  }
}
