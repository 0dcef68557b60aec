import { afterEach, beforeEach, expect, test } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { useUser } from '../session/user-store';
import { signInAs } from '../../testing/fake-api';
import { allDrafts, readDrafts, writeDraft } from './draft-store';
import { DraftChoice, UnreachableDrafts } from './draft-choice';
import { useDraft } from './use-draft';

interface Note {
  note: string;
}
const isNote = (data: unknown): data is Note => typeof data === 'object' && data !== null && typeof (data as Note).note === 'string';

function NoteForm() {
  const draft = useDraft('motHandle:9', isNote, (data) => !data.note.trim());
  return <p data-testid="form">{draft.restored?.data.note ?? 'fresh'}</p>;
}
const choose = () => (
  <DraftChoice draftKey="motHandle:9" accept={isNote} describe={(data) => data.note}>
    <NoteForm />
  </DraftChoice>
);

/** Two tabs, now closed, each left a draft of the record. */
function leftByTwoClosedTabs() {
  writeDraft('motHandle:9', { note: 'from the first tab' }, {}, Date.now() - 60_000);
  sessionStorage.clear();
  writeDraft('motHandle:9', { note: 'from the second tab' });
  sessionStorage.clear();
}

beforeEach(() => signInAs('chanwaiman'));
afterEach(() => useUser.getState().clearToken());

test('several drafts left by other tabs are offered, newest first; the form waits and then opens with the one taken', () => {
  leftByTwoClosedTabs();
  render(choose());
  expect(screen.queryByTestId('form')).toBeNull();
  const items = screen.getAllByTestId('draft-choice-item');
  expect(items.map((item) => item.textContent)).toEqual([
    expect.stringContaining('from the second tab'),
    expect.stringContaining('from the first tab'),
  ]);
  fireEvent.click(items[1]!);
  expect(screen.getByTestId('form').textContent).toBe('from the first tab');
  // The one not taken stays, to be offered again.
  expect(readDrafts('motHandle:9', isNote).others.map((draft) => draft.data.note)).toEqual(['from the second tab']);
});

test('starting without them opens the form fresh and keeps both', () => {
  leftByTwoClosedTabs();
  render(choose());
  fireEvent.click(screen.getByTestId('draft-choice-none'));
  expect(screen.getByTestId('form').textContent).toBe('fresh');
  expect(readDrafts('motHandle:9', isNote).others).toHaveLength(2);
});

test("one draft of this tab's own, or a single other, opens the form at once", () => {
  writeDraft('motHandle:9', { note: 'mine' });
  render(choose());
  expect(screen.getByTestId('form').textContent).toBe('mine');
});

test("a record whose page does not open (another manager's client now) still shows what every tab typed for it, until let go", () => {
  leftByTwoClosedTabs();
  writeDraft('motHandle:9', { note: 'this tab' });
  render(<UnreachableDrafts draftKey="motHandle:9" accept={isNote} describe={(data) => data.note} />);
  expect(screen.getAllByTestId('unreachable-draft').map((item) => item.textContent)).toEqual([
    'this tab',
    'from the second tab',
    'from the first tab',
  ]);
  fireEvent.click(screen.getByTestId('unreachable-discard'));
  expect(screen.queryByTestId('unreachable-drafts')).toBeNull();
  expect(allDrafts('motHandle:9', isNote)).toEqual([]);
});
