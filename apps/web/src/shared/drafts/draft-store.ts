import { getAppSettings } from '../session/app-settings-store';
import { hasUsableToken, useUser } from '../session/user-store';
import { StorageKey } from '../session/storage-keys';

/*
 * What a user typed and has not saved yet, kept in the browser so that neither a session expiry (the
 * OAuth round trip reloads the app), nor a crash or a closed sidebar, loses it (issue 17.5, ADR 0013).
 *
 * - A draft belongs to one staff member of one corp (its owner): the key names the owner, and a draft is
 *   read only while that staff member is signed in. When someone else signs in on this browser, every
 *   other owner's drafts are removed (a shared PC: B never sees, nor can dig out, A's unsaved notes).
 * - It lives in localStorage (survives a closed WebView) and sessionStorage (survives the sign-in round
 *   trip where localStorage does not last, as in WeCom's Mac sidebar); the newer copy wins.
 * - It belongs to the tab it was typed in: two tabs on one record keep two drafts, and one tab's save or
 *   discard removes only its own. A tab opened afresh takes over another tab's draft if there is one (a
 *   tab closed and reopened), and is offered the choice if there are several (DraftChoice).
 * - It expires DRAFT_TTL_MS after it was last written, and is removed once saved.
 * - Whatever is read back is untrusted (storage can be edited): each caller checks the data's shape.
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

const storages = (): Storage[] => {
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

const storageKey = (owner: string, key: string) => `${PREFIX}${owner}:${key}`;

const TAB_ID = /^[a-z0-9]{8,16}$/;
const newTabId = () => Math.random().toString(36).slice(2, 10).padEnd(8, '0');
const tabWithoutStorage = newTabId();

/** This tab's id, kept in sessionStorage: a reload and the sign-in round trip keep it, a new tab gets its own. */
export function thisTab(): string {
  try {
    const known = window.sessionStorage.getItem(StorageKey.draftTab);
    if (known && TAB_ID.test(known)) return known;
    const id = newTabId();
    window.sessionStorage.setItem(StorageKey.draftTab, id);
    return id;
  } catch {
    return tabWithoutStorage;
  }
}

/** Where a tab's copy of a draft is kept; tab '' is a draft written before drafts had tabs. */
const tabKey = (base: string, tab: string) => (tab ? `${base}#${tab}` : base);

function parse(raw: string | null, now: number): StoredDraft<unknown> | null {
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

const keysOf = (storage: Storage) => Array.from({ length: storage.length }, (_, index) => storage.key(index) ?? '');

/** Another tab's draft of the same record. */
export type TabDraft<T> = StoredDraft<T> & { tab: string };

/**
 * The signed-in staff member's drafts under `key` that are fresh and of the shape `accept` checks: this tab's,
 * and every other tab's, newest first.
 */
export function readDrafts<T>(key: string, accept: (data: unknown) => data is T, now = Date.now()) {
  const owner = draftOwner();
  const byTab = new Map<string, StoredDraft<unknown>>();
  if (owner) {
    const base = storageKey(owner, key);
    for (const storage of storages())
      for (const name of keysOf(storage)) {
        const tab = name === base ? '' : name.startsWith(`${base}#`) ? name.slice(base.length + 1) : null;
        if (tab === null) continue;
        const draft = parse(storage.getItem(name), now);
        const known = byTab.get(tab);
        if (draft && (!known || draft.savedAt > known.savedAt)) byTab.set(tab, draft);
      }
  }
  const here = thisTab();
  const accepted = [...byTab].filter(([, draft]) => accept(draft.data)).map(([tab, draft]) => ({ ...draft, tab }) as TabDraft<T>);
  return {
    mine: accepted.find((draft) => draft.tab === here) ?? null,
    others: accepted.filter((draft) => draft.tab !== here).sort((a, b) => b.savedAt - a.savedAt),
  };
}

/** This tab's draft under `key`; in a tab without one, the one other tab's (none when there are several to choose from). */
export function readDraft<T>(key: string, accept: (data: unknown) => data is T, now = Date.now()): TabDraft<T> | null {
  const { mine, others } = readDrafts(key, accept, now);
  return mine ?? (others.length === 1 ? others[0]! : null);
}

/** Every tab's draft under `key`, this tab's first. */
export function allDrafts<T>(key: string, accept: (data: unknown) => data is T): TabDraft<T>[] {
  const { mine, others } = readDrafts(key, accept);
  return mine ? [mine, ...others] : others;
}

export function writeDraft(key: string, data: unknown, options: { submitting?: boolean } = {}, now = Date.now()): void {
  const owner = draftOwner();
  if (!owner) return;
  const value = JSON.stringify({ data, savedAt: now, submitting: options.submitting === true });
  for (const storage of storages()) {
    try {
      storage.setItem(tabKey(storageKey(owner, key), thisTab()), value);
    } catch {
      // Quota: the other storage may still take it.
    }
  }
}

/** This tab's draft under `key` (saved, or thrown away by the user); other tabs keep theirs. */
export function removeDraft(key: string, tab = thisTab()): void {
  const owner = draftOwner();
  if (!owner) return;
  for (const storage of storages()) storage.removeItem(tabKey(storageKey(owner, key), tab));
}

/** Another tab's draft becomes this tab's: moved, not copied, so one text is never offered twice. */
export function takeDraft(key: string, draft: TabDraft<unknown>): void {
  if (draft.tab === thisTab()) return;
  writeDraft(key, draft.data, { submitting: draft.submitting }, draft.savedAt);
  removeDraft(key, draft.tab);
}

/**
 * Removes expired or unreadable drafts, and every draft not belonging to `keepOwner` (all of them when it
 * is null): run at start, whenever a different staff member signs in, and at sign-out.
 */
export function sweepDrafts(keepOwner: string | null = draftOwner(), now = Date.now()): void {
  for (const storage of storages()) {
    for (const key of keysOf(storage).filter((name) => name.startsWith(PREFIX))) {
      const mine = keepOwner !== null && key.startsWith(`${PREFIX}${keepOwner}:`);
      if (!mine || !parse(storage.getItem(key), now)) storage.removeItem(key);
    }
  }
}
