import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from '../../shared/i18n/use-translation';
import Popup from 'antd-mobile/es/components/popup';
import TextArea from 'antd-mobile/es/components/text-area';
import Input from 'antd-mobile/es/components/input';
import Button from 'antd-mobile/es/components/button';
import Toast from '../../shared/ui/antd-toast';
import type { MotRule, ServiceChannel, ServiceRecord } from '@broker/contract';
import { serviceChannelValues, type endpoints, type RequestOf } from '../../shared/api/contract';
import { useDraft } from '../../shared/drafts/use-draft';
import { readDraft } from '../../shared/drafts/draft-store';
import { useDraftNotice } from '../../shared/drafts/draft-notice';
import { RadioButtons } from '../../shared/ui/radio-buttons';
import { handOverTyped } from '../../shared/drafts/handover';
import { useHandleEvent } from './mot-api';
import { CHANNEL_ICON, RuleTag } from './mot-parts';
import { SheetHead } from '../../shared/ui/sheet';
import { SERVICE_OUTCOME_CODES, outcomeText } from '../../shared/format/outcome';
import { isObject, isText } from '../../shared/drafts/page-state';

/** What the sheet keeps of an unsaved handling (ADR 0013): the note typed, the channel and outcome chosen. */
type HandleDraft = Pick<RequestOf<typeof endpoints.handleEvent>, 'channel' | 'note'> & { outcome: string };

export const isHandleDraft = (data: unknown): data is HandleDraft => {
  const draft = data as Partial<HandleDraft> | null;
  return (
    isObject(draft) &&
    serviceChannelValues.includes(draft.channel as ServiceChannel) &&
    isText(draft.note, 1000) &&
    isText(draft.outcome, 200)
  );
};
const isUntouched = (draft: HandleDraft) => !draft.note.trim() && !draft.outcome.trim();
const FRESH: HandleDraft = { channel: 'phone', note: '', outcome: '' };

export const handleDraftKey = (eventId: number) => `motHandle:${eventId}`;

/** A handling of this event was being saved when the session ended: the page opens the sheet again. */
export const handleWasInterrupted = (eventId: number) => readDraft(handleDraftKey(eventId), isHandleDraft)?.submitting === true;

export interface HandleSheetProps {
  visible: boolean;
  eventId: number;
  rule: MotRule;
  customerId: number;
  customerName: string;
  onClose: () => void;
  onHandled: (record: ServiceRecord) => void;
}

/** The handle sheet: channel, what was done (required), outcome; writes the event's service record. */
export function HandleSheet({ visible, eventId, rule, customerId, customerName, onClose, onHandled }: HandleSheetProps) {
  const { t } = useTranslation();
  const draft = useDraft(handleDraftKey(eventId), isHandleDraft, isUntouched);
  const { notice, saved } = useDraftNotice(draft, draft.restored);
  const [form, setForm] = useState(draft.restored?.data ?? FRESH);
  const { channel, note, outcome } = form;
  const set = (typed: Partial<HandleDraft>) => setForm((current) => ({ ...current, ...typed }));
  const [noteError, setNoteError] = useState(false);
  const handle = useHandleEvent();
  const navigate = useNavigate();

  // Kept while typing, so neither a session expiry nor a crash loses the note.
  useEffect(() => draft.keep(form), [draft, form]);

  /** The contact log's full form (purpose, next step, suitability…), by its route, taking along what was typed here. */
  const openFullForm = () => {
    // The full form's outcome is free text: a chip's code goes over as its words.
    handOverTyped(`contactNew:${customerId}`, { note, outcome: outcomeText(outcome) });
    // Moved over to the form: not kept twice (two drafts could handle the event twice).
    draft.saved();
    navigate(`/client/contact/new?customerId=${customerId}&eventId=${eventId}&channel=${channel}`);
  };

  const submit = () => {
    if (!note.trim()) {
      setNoteError(true);
      return;
    }
    draft.submitting(form);
    handle.mutate(
      { eventId, channel, note: note.trim(), outcome: outcome.trim() || null },
      {
        onSuccess: (record) => {
          saved();
          Toast.show({ icon: 'success', content: t('mot.handle.success') });
          set({ note: '', outcome: '' });
          onHandled(record);
        },
        onError: (error) => {
          // Refused: the note stays, as typed, for another try; a session expiry leaves the page with the save marked unfinished.
          if (draft.failed(error, form)) onClose();
        },
      },
    );
  };

  return (
    <Popup visible={visible} onMaskClick={onClose} onClose={onClose} bodyClassName="ba-sheet mot-sheet" destroyOnClose>
      <SheetHead title={t('mot.handle.title')} onClose={onClose} />
      <div className="ba-row mot-sheet__subject">
        <RuleTag rule={rule} />
        <span>{customerName}</span>
      </div>
      <div className="ba-sheet__body">
        {notice(() => setForm(FRESH))}
        <div className="mot-field">
          <div className="mot-field__label">{t('mot.handle.channel')}</div>
          <RadioButtons
            label={t('mot.handle.channel')}
            options={serviceChannelValues}
            value={channel}
            onChange={(value) => set({ channel: value })}
            render={(option) => (
              <>
                <span className="ba-tiles__icon">{CHANNEL_ICON[option]}</span>
                {t(`contact.channel.${option}`)}
              </>
            )}
            className="ba-tiles mot-channels"
            itemClassName="ba-tiles__item"
          />
        </div>
        <div className="mot-field">
          <label className="mot-field__label mot-field__label--required" htmlFor="mot-handle-note">
            {t('mot.handle.note')}
          </label>
          <div className={noteError ? 'mot-field__box mot-field__box--error' : 'mot-field__box'}>
            <TextArea
              id="mot-handle-note"
              placeholder={t('mot.handle.notePlaceholder')}
              value={note}
              onChange={(value) => {
                set({ note: value });
                if (value.trim()) setNoteError(false);
              }}
              rows={3}
              maxLength={1000}
              showCount
            />
          </div>
          {noteError && <div className="mot-field__error">{t('mot.handle.noteRequired')}</div>}
        </div>
        <div className="mot-field">
          <label className="mot-field__label" htmlFor="mot-handle-outcome">
            {t('mot.handle.outcome')}
          </label>
          <div className="ba-choice-chips mot-presets">
            {SERVICE_OUTCOME_CODES.map((code) => (
              <button
                key={code}
                type="button"
                className={outcome === code ? 'ba-choice-chip ba-hit mot-chip ba-choice-chip--on' : 'ba-choice-chip ba-hit mot-chip'}
                onClick={() => set({ outcome: code })}
                data-outcome={code}
              >
                {t(`outcome.${code}`)}
              </button>
            ))}
          </div>
          <div className="mot-field__box">
            <Input
              id="mot-handle-outcome"
              placeholder={t('mot.handle.outcomePlaceholder')}
              value={outcomeText(outcome)}
              onChange={(value) => set({ outcome: value })}
              maxLength={200}
              clearable
            />
          </div>
        </div>
      </div>
      <div className="ba-sheet__foot">
        <Button block color="primary" shape="rounded" size="large" loading={handle.isPending} onClick={submit}>
          {t('mot.handle.submit')}
        </Button>
        <button type="button" className="ba-bare mot-sheet__full" onClick={openFullForm} data-testid="mot-handle-full-form">
          {t('mot.handle.fullForm')}
        </button>
      </div>
    </Popup>
  );
}
