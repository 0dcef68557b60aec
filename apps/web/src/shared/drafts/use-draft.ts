import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { RELOGIN_CODES } from '../api/contract';
import { ApiError } from '../api/api-error';
import type { StoredDraft } from './draft-owner';
import { readDraft, removeDraft, takeDraft, writeDraft } from './draft-store';

/** Typing is written at most this often; a pending write is flushed when the form unmounts or the page hides. */
export const DRAFT_WRITE_DELAY_MS = 400;

export interface Draft<T> {
  /** What was restored when the form mounted (read once), or null. */
  readonly restored: StoredDraft<T> | null;
  /** The form's current values: written shortly (debounced), or removed when `isEmpty` says there is nothing to keep. */
  keep(data: T): void;
  /** The save is being sent: written now, marked as not finished until `saved` (or `keep` after a refusal). */
  submitting(data: T): void;
  /** Saved (or thrown away by the user): the draft is removed. */
  saved(): void;
  /**
   * The save failed: `data` is kept for another try, and true. False when the session ended (080000/080001): sign-in is under way,
   * and the draft, marked as submitting, stays to be offered on return.
   */
  failed(error: unknown, data: T): boolean;
}

/** A form's draft under `key` (`motHandle:42`), the signed-in staff member's and this tab's; `accept` checks what storage gives back. */
export function useDraft<T>(key: string, accept: (data: unknown) => data is T, isEmpty: (data: T) => boolean): Draft<T> {
  const [restored] = useState(() => {
    const found = readDraft(key, accept);
    // Left by a tab now closed (or still open): this tab goes on with it, and its save removes it.
    if (found) takeDraft(key, found);
    return found;
  });
  const pending = useRef<{ data: T; timer: ReturnType<typeof setTimeout> } | null>(null);
  // The latest check, without making the draft's methods change identity each render (forms depend on them).
  const isEmptyRef = useRef(isEmpty);
  useLayoutEffect(() => {
    isEmptyRef.current = isEmpty;
  });

  const flush = useCallback(() => {
    const write = pending.current;
    if (!write) return;
    clearTimeout(write.timer);
    pending.current = null;
    if (isEmptyRef.current(write.data)) removeDraft(key);
    else writeDraft(key, write.data);
  }, [key]);

  useEffect(() => {
    // A session expiry unmounts the page before it navigates away; a hidden page may be killed without notice.
    const onHide = () => flush();
    window.addEventListener('pagehide', onHide);
    document.addEventListener('visibilitychange', onHide);
    return () => {
      window.removeEventListener('pagehide', onHide);
      document.removeEventListener('visibilitychange', onHide);
      flush();
    };
  }, [flush]);

  return useMemo<Draft<T>>(() => {
    const keep = (data: T) => {
      if (pending.current) clearTimeout(pending.current.timer);
      pending.current = { data, timer: setTimeout(flush, DRAFT_WRITE_DELAY_MS) };
    };
    return {
      restored,
      keep,
      submitting(data) {
        if (pending.current) clearTimeout(pending.current.timer);
        pending.current = null;
        writeDraft(key, data, { submitting: true });
      },
      saved() {
        if (pending.current) clearTimeout(pending.current.timer);
        pending.current = null;
        removeDraft(key);
      },
      failed(error, data) {
        if (error instanceof ApiError && RELOGIN_CODES.includes(error.code)) return false;
        keep(data);
        return true;
      },
    };
  }, [key, restored, flush]);
}
