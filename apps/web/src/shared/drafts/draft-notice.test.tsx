import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { useUser } from '../session/user-store';
import { signInAs } from '../../testing/fake-api';
import { readDraft, writeDraft } from './draft-store';
import { useDraft } from './use-draft';
import { useDraftNotice } from './draft-notice';

interface Note {
  note: string;
}
const isNote = (data: unknown): data is Note => typeof data === 'object' && data !== null && typeof (data as Note).note === 'string';
const isBlank = (data: Note) => !data.note.trim();

beforeEach(() => signInAs('chanwaiman'));
afterEach(() => useUser.getState().clearToken());

describe('useDraftNotice', () => {
  function NoteForm({ onReset }: { onReset: () => void }) {
    const draft = useDraft('motHandle:8', isNote, isBlank);
    const { notice, saved } = useDraftNotice(draft, draft.restored);
    return (
      <>
        {notice(onReset)}
        <button type="button" onClick={saved}>
          save
        </button>
      </>
    );
  }

  test('says what was restored; discarding removes the draft and empties the form', () => {
    writeDraft('motHandle:8', { note: 'from before' }, { submitting: true });
    const reset = vi.fn();
    render(<NoteForm onReset={reset} />);
    expect(screen.getByTestId('draft-notice').className).toContain('ba-tone--amber');
    fireEvent.click(screen.getByTestId('draft-discard'));
    expect(screen.queryByTestId('draft-notice')).toBeNull();
    expect(reset).toHaveBeenCalledOnce();
    expect(readDraft('motHandle:8', isNote)).toBeNull();
  });

  test('a save removes the draft and the notice goes; nothing restored says nothing', () => {
    writeDraft('motHandle:8', { note: 'from before' });
    const { unmount } = render(<NoteForm onReset={() => undefined} />);
    expect(screen.getByTestId('draft-notice').className).not.toContain('ba-tone--amber');
    fireEvent.click(screen.getByText('save'));
    expect(screen.queryByTestId('draft-notice')).toBeNull();
    expect(readDraft('motHandle:8', isNote)).toBeNull();
    unmount();
    render(<NoteForm onReset={() => undefined} />);
    expect(screen.queryByTestId('draft-notice')).toBeNull();
  });
});
