import { StorageKey } from '../session/storage-keys';
import { draftOwner, keysOf, parse, storageKey, storages, type StoredDraft } from './draft-owner';

/*
 * A form's drafts, per tab (ADR 0013): a tab's save or discard removes only its own. A tab opened afresh takes over another tab's
 * draft, or is offered the choice among several (DraftChoice). Storage is untrusted: each caller checks the data's shape.
 */

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

/** Another tab's draft of the same record. */
export type TabDraft<T> = StoredDraft<T> & { tab: string };

/** The signed-in staff member's fresh drafts under `key` that `accept` takes: this tab's, and every other tab's, newest first. */
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
