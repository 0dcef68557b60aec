import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { ApiError } from '../api/api-error';
import { useUser } from '../session/user-store';
import { signInAs } from '../../testing/fake-api';
import { useAppSettings } from '../session/app-settings-store';
import { DRAFT_TTL_MS, sweepDrafts } from './draft-owner';
import { readDraft, readDrafts, removeDraft, takeDraft, writeDraft } from './draft-store';
import { DRAFT_WRITE_DELAY_MS, useDraft } from './use-draft';
import { forgetDrafts, installDrafts } from './install';

interface Note {
  note: string;
}
const isNote = (data: unknown): data is Note => typeof data === 'object' && data !== null && typeof (data as Note).note === 'string';
const isBlank = (data: Note) => !data.note.trim();

const draftKeys = (storage: Storage) => Object.keys(storage).filter((key) => key.startsWith('draft:'));
const noRouter = { state: { location: { pathname: '/', search: '' } }, subscribe: () => () => undefined };

beforeEach(() => {
  useAppSettings.getState().reset();
  signInAs('chanwaiman');
});

afterEach(() => {
  vi.useRealTimers();
  useUser.getState().clearToken();
});

describe('drafts belong to one staff member', () => {
  test('what A wrote, A reads; B, signed in on the same browser, never does', () => {
    writeDraft('motHandle:1', { note: 'called, will come in Friday' });
    expect(readDraft('motHandle:1', isNote)?.data).toEqual({ note: 'called, will come in Friday' });
    signInAs('leekaying');
    expect(readDraft('motHandle:1', isNote)).toBeNull();
  });

  test('when a different staff member signs in, every draft of anyone else is removed from the browser', () => {
    const stop = installDrafts(noRouter);
    writeDraft('motHandle:1', { note: "A's note" });
    signInAs('chanwaiman'); // the same person again: kept
    expect(draftKeys(localStorage)).toHaveLength(1);
    signInAs('leekaying');
    expect(draftKeys(localStorage)).toEqual([]);
    expect(draftKeys(sessionStorage)).toEqual([]);
    stop();
  });

  test('the same userid in another corp is another owner', () => {
    writeDraft('motHandle:1', { note: 'fxhl' });
    useAppSettings.getState().update({ corpCode: 'other' });
    expect(readDraft('motHandle:1', isNote)).toBeNull();
  });

  test('signed out (no token, or an expired one), nothing is read or written', () => {
    writeDraft('motHandle:1', { note: 'kept' });
    useUser.getState().clearToken();
    expect(readDraft('motHandle:1', isNote)).toBeNull();
    writeDraft('motHandle:2', { note: 'nobody' });
    signInAs('chanwaiman');
    expect(readDraft('motHandle:1', isNote)?.data.note).toBe('kept');
    expect(readDraft('motHandle:2', isNote)).toBeNull();
  });

  test('sign-out forgets every draft', () => {
    writeDraft('motHandle:1', { note: 'x' });
    forgetDrafts();
    expect(draftKeys(localStorage)).toEqual([]);
    expect(draftKeys(sessionStorage)).toEqual([]);
  });
});

describe('a draft is kept where it survives, for a day, until saved', () => {
  test('in localStorage and sessionStorage: either one alone brings it back (the Mac sidebar clears localStorage)', () => {
    writeDraft('clientEdit:5', { note: 'both' });
    expect(draftKeys(localStorage)).toHaveLength(1);
    expect(draftKeys(sessionStorage)).toHaveLength(1);
    localStorage.removeItem(draftKeys(localStorage)[0]!);
    expect(readDraft('clientEdit:5', isNote)?.data.note).toBe('both');
  });

  test('the newer copy wins', () => {
    writeDraft('clientEdit:5', { note: 'old' }, {}, Date.now() - 1000);
    const [key] = draftKeys(localStorage);
    const older = localStorage.getItem(key!)!;
    writeDraft('clientEdit:5', { note: 'new' });
    localStorage.setItem(key!, older);
    expect(readDraft('clientEdit:5', isNote)?.data.note).toBe('new');
  });

  test('expires a day after it was last written, and the start-up sweep removes it', () => {
    const now = Date.now();
    writeDraft('motHandle:1', { note: 'yesterday' }, {}, now - DRAFT_TTL_MS - 1);
    writeDraft('motHandle:2', { note: 'today' }, {}, now - DRAFT_TTL_MS + 60_000);
    expect(readDraft('motHandle:1', isNote, now)).toBeNull();
    expect(readDraft('motHandle:2', isNote, now)?.data.note).toBe('today');
    sweepDrafts(undefined, now);
    expect(draftKeys(localStorage)).toHaveLength(1);
  });

  test('removed once saved', () => {
    writeDraft('motHandle:1', { note: 'x' });
    removeDraft('motHandle:1');
    expect(readDraft('motHandle:1', isNote)).toBeNull();
    expect(draftKeys(sessionStorage)).toEqual([]);
  });

  test('what storage gives back is checked: a wrong shape, bad JSON or a time in the future is no draft', () => {
    writeDraft('motHandle:1', { note: 42 });
    expect(readDraft('motHandle:1', isNote)).toBeNull();
    const key = 'draft:fxhl/chanwaiman:motHandle:2';
    localStorage.setItem(key, '{not json');
    expect(readDraft('motHandle:2', isNote)).toBeNull();
    localStorage.setItem(key, JSON.stringify({ data: { note: 'x' }, savedAt: Date.now() + 3_600_000 }));
    expect(readDraft('motHandle:2', isNote)).toBeNull();
  });
});

/** Another tab of the same browser: its own sessionStorage (and so its own id), the one localStorage. A closed tab's sessionStorage is gone. */
function switchTab(to: Record<string, string> = {}): Record<string, string> {
  const left = { ...sessionStorage };
  sessionStorage.clear();
  for (const [key, value] of Object.entries(to)) sessionStorage.setItem(key, value);
  return left;
}

describe('two tabs on one record keep two drafts (issue 36.6)', () => {
  test("one tab's save leaves the other's draft: that tab, closed and opened again, gets its text back", () => {
    writeDraft('clientEdit:5', { note: 'typed in the first tab' });
    switchTab();
    writeDraft('clientEdit:5', { note: 'typed in the second tab' });
    expect(readDraft('clientEdit:5', isNote)?.data.note).toBe('typed in the second tab');
    removeDraft('clientEdit:5'); // the second tab saved
    switchTab(); // the first tab was closed; it is opened again
    expect(readDraft('clientEdit:5', isNote)?.data.note).toBe('typed in the first tab');
  });

  test("a tab's typing never overwrites the other tab's copy; a reload reads its own", () => {
    writeDraft('clientEdit:5', { note: 'first' });
    const first = switchTab();
    writeDraft('clientEdit:5', { note: 'second' });
    switchTab(first);
    expect(readDraft('clientEdit:5', isNote)?.data.note).toBe('first');
    expect(readDrafts('clientEdit:5', isNote).others.map((draft) => draft.data.note)).toEqual(['second']);
  });

  test('a tab without its own takes over the one draft it finds: moved, so its save leaves nothing behind', () => {
    writeDraft('motHandle:1', { note: 'left by a closed tab' });
    switchTab();
    const { result } = renderHook(() => useDraft('motHandle:1', isNote, isBlank));
    expect(result.current.restored?.data.note).toBe('left by a closed tab');
    expect(draftKeys(localStorage)).toHaveLength(1);
    act(() => result.current.saved());
    expect(draftKeys(localStorage)).toEqual([]);
  });

  test("several other tabs' drafts: none is picked silently; the one taken moves, the others stay", () => {
    writeDraft('motHandle:1', { note: 'older' }, {}, Date.now() - 5000);
    switchTab();
    writeDraft('motHandle:1', { note: 'newer' });
    switchTab();
    expect(readDraft('motHandle:1', isNote)).toBeNull();
    const { mine, others } = readDrafts('motHandle:1', isNote);
    expect(mine).toBeNull();
    expect(others.map((draft) => draft.data.note)).toEqual(['newer', 'older']);
    takeDraft('motHandle:1', others[1]!);
    expect(readDraft('motHandle:1', isNote)?.data.note).toBe('older');
    expect(readDrafts('motHandle:1', isNote).others.map((draft) => draft.data.note)).toEqual(['newer']);
  });

  test('a draft written before drafts had tabs is still found', () => {
    localStorage.setItem('draft:fxhl/chanwaiman:motHandle:3', JSON.stringify({ data: { note: 'from before' }, savedAt: Date.now() }));
    expect(readDraft('motHandle:3', isNote)?.data.note).toBe('from before');
  });
});

describe('useDraft', () => {
  test('keeps typing after a short pause, and at once when the form goes away (a session expiry unmounts it)', () => {
    vi.useFakeTimers();
    const { result, unmount } = renderHook(() => useDraft('motHandle:7', isNote, isBlank));
    act(() => result.current.keep({ note: 'first words' }));
    expect(readDraft('motHandle:7', isNote)).toBeNull();
    act(() => {
      vi.advanceTimersByTime(DRAFT_WRITE_DELAY_MS);
    });
    expect(readDraft('motHandle:7', isNote)?.data.note).toBe('first words');
    act(() => result.current.keep({ note: 'first words, more' }));
    unmount();
    expect(readDraft('motHandle:7', isNote)?.data.note).toBe('first words, more');
  });

  test('a hidden page writes what is pending (it may be killed without unmounting)', () => {
    vi.useFakeTimers();
    const { result, unmount } = renderHook(() => useDraft('motHandle:7', isNote, isBlank));
    act(() => result.current.keep({ note: 'typed' }));
    window.dispatchEvent(new Event('pagehide'));
    expect(readDraft('motHandle:7', isNote)?.data.note).toBe('typed');
    unmount();
  });

  test('submitting is written at once and marked; saved removes it; an emptied form keeps nothing', () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useDraft('motHandle:7', isNote, isBlank));
    act(() => result.current.submitting({ note: 'sent' }));
    expect(readDraft('motHandle:7', isNote)).toMatchObject({ data: { note: 'sent' }, submitting: true });
    act(() => result.current.saved());
    expect(readDraft('motHandle:7', isNote)).toBeNull();
    act(() => result.current.keep({ note: 'again' }));
    act(() => {
      vi.advanceTimersByTime(DRAFT_WRITE_DELAY_MS);
    });
    act(() => result.current.keep({ note: '  ' }));
    act(() => {
      vi.advanceTimersByTime(DRAFT_WRITE_DELAY_MS);
    });
    expect(readDraft('motHandle:7', isNote)).toBeNull();
  });

  test('restores what was there when the form mounts', () => {
    writeDraft('motHandle:7', { note: 'from before' }, { submitting: true });
    const { result } = renderHook(() => useDraft('motHandle:7', isNote, isBlank));
    expect(result.current.restored).toMatchObject({ data: { note: 'from before' }, submitting: true });
  });

  test('a failed save keeps what was typed for another try; one the session ended leaves the draft marked as submitting', () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useDraft('motHandle:7', isNote, isBlank));
    act(() => result.current.submitting({ note: 'sent' }));
    expect(result.current.failed(new ApiError('080001', 'session ended', '/x'), { note: 'sent' })).toBe(false);
    act(() => {
      vi.advanceTimersByTime(DRAFT_WRITE_DELAY_MS);
    });
    expect(readDraft('motHandle:7', isNote)).toMatchObject({ data: { note: 'sent' }, submitting: true });
    expect(result.current.failed(new ApiError('090409', 'refused', '/x'), { note: 'sent, again' })).toBe(true);
    act(() => {
      vi.advanceTimersByTime(DRAFT_WRITE_DELAY_MS);
    });
    expect(readDraft('motHandle:7', isNote)).toMatchObject({ data: { note: 'sent, again' }, submitting: false });
  });
});
