import { useState } from 'react';
import { useNavigate } from 'react-router';
import Button from 'antd-mobile/es/components/button';
import ExclamationCircleFill from 'antd-mobile-icons/es/ExclamationCircleFill';
import type { ServiceRecord } from '@broker/contract';
import { useTranslation } from '../../shared/i18n/use-translation';
import { allDrafts, removeDraft } from '../../shared/drafts/draft-store';
import { handOverTyped } from '../../shared/drafts/handover';
import { outcomeText } from '../../shared/format/outcome';
import { contactFormPath } from '../contact';
import { handleDraftKey, isHandleDraft } from './handle-sheet';
import { isSnoozeDraft, snoozeDraftKey } from './mot-snooze-sheet';
import './locales';
import '../../shared/drafts/edit-conflict.css';

const joined = (texts: string[]) => [...new Set(texts.map((text) => text.trim()).filter(Boolean))].join('\n');

/** What this browser's tabs typed for the event and never saved: handlings and snoozes, each tab's. */
function leftFor(eventId: number, saved: ServiceRecord | null) {
  const handles = allDrafts(handleDraftKey(eventId), isHandleDraft);
  const snoozes = allDrafts(snoozeDraftKey(eventId), isSnoozeDraft);
  // A handling whose save went through (its answer lost on the way) is the saved record itself: nothing is left of it.
  const wentThrough = (draft: (typeof handles)[number]) => saved !== null && draft.data.note.trim() === saved.note.trim();
  for (const draft of handles.filter(wentThrough)) removeDraft(handleDraftKey(eventId), draft.tab);
  const unsaved = handles.filter((draft) => !wentThrough(draft));
  const note = joined([...unsaved.map((draft) => draft.data.note), ...snoozes.map((draft) => draft.data.note)]);
  if (!note) return null;
  return {
    note,
    outcome: joined(unsaved.map((draft) => outcomeText(draft.data.outcome))),
    channel: unsaved[0]?.data.channel ?? 'phone',
    forget: () => {
      for (const draft of unsaved) removeDraft(handleDraftKey(eventId), draft.tab);
      for (const draft of snoozes) removeDraft(snoozeDraftKey(eventId), draft.tab);
    },
  };
}

/** Handled elsewhere while its note was unsaved: the note is shown, never dropped unseen, to log as a contact or throw away (ADR 0013). */
export function HandledMeanwhile({ eventId, customerId, saved }: { eventId: number; customerId: number; saved: ServiceRecord | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [left, setLeft] = useState(() => leftFor(eventId, saved));
  if (!left) return null;
  const saveAsContact = () => {
    // Read again: a sheet that closed as the event turned handled wrote its last keystrokes on the way out.
    const latest = leftFor(eventId, saved) ?? left;
    handOverTyped(`contactNew:${customerId}`, { note: latest.note, outcome: latest.outcome });
    latest.forget();
    navigate(contactFormPath({ customerId, channel: latest.channel }));
  };
  return (
    <section className="ba-conflict" role="alert" data-testid="mot-handled-meanwhile">
      <p className="ba-row ba-conflict__title">
        <ExclamationCircleFill /> {t('mot.handle.meanwhileTitle')}
      </p>
      <p className="ba-conflict__body">{t('mot.handle.meanwhileBody')}</p>
      <p className="ba-merge__value ba-merge__quote" data-testid="mot-left-note">
        {left.note}
        {left.outcome && `\n${t('mot.handle.outcome')}: ${left.outcome}`}
      </p>
      <div className="ba-wrap ba-conflict__actions">
        <Button
          size="small"
          onClick={() => {
            (leftFor(eventId, saved) ?? left).forget();
            setLeft(null);
          }}
          data-testid="mot-left-discard"
        >
          {t('mot.handle.meanwhileDiscard')}
        </Button>
        <Button size="small" color="primary" onClick={saveAsContact} data-testid="mot-left-save">
          {t('mot.handle.meanwhileSave')}
        </Button>
      </div>
    </section>
  );
}
