import { useEffect, useState } from 'react';
import Popup from 'antd-mobile/es/components/popup';
import TextArea from 'antd-mobile/es/components/text-area';
import Button from 'antd-mobile/es/components/button';
import { MAX_SNOOZE_DAYS, SNOOZE_REASONS, type MotRule, type SnoozeReason } from '@broker/contract';
import { addDays, hongKongDay } from '@broker/domain';
import { useTranslation } from '../../shared/i18n/use-translation';
import Toast from '../../shared/ui/antd-toast';
import { useDraft } from '../../shared/drafts/use-draft';
import { useDraftNotice } from '../../shared/drafts/draft-notice';
import { RadioButtons } from '../../shared/ui/radio-buttons';
import './locales';
import './mot-rank.css';
import { useSnoozeEvent } from './mot-api';
import { RuleTag } from './mot-parts';
import { SheetHead } from '../../shared/ui/sheet';
import { isObject, isText } from '../../shared/drafts/page-state';
import type { endpoints, RequestOf } from '../../shared/api/contract';

/** The quick picks, in days after today: tomorrow, in 3 days, next week. */
export const SNOOZE_PRESETS = [
  { key: 'tomorrow', days: 1 },
  { key: 'in3Days', days: 3 },
  { key: 'nextWeek', days: 7 },
] as const;

/** What the sheet keeps of an unsaved snooze (ADR 0013): the day picked, the reason chosen, the note typed. */
type SnoozeDraft = Required<Omit<RequestOf<typeof endpoints.snoozeEvent>, 'eventId'>>;
export const isSnoozeDraft = (data: unknown): data is SnoozeDraft => {
  const draft = data as Partial<SnoozeDraft> | null;
  return (
    isObject(draft) && typeof draft.until === 'string' && SNOOZE_REASONS.includes(draft.reason as SnoozeReason) && isText(draft.note, 200)
  );
};
// Only a typed note is worth keeping: a day and a reason are one tap each.
const isUntouched = (draft: SnoozeDraft) => !draft.note.trim();

export const snoozeDraftKey = (eventId: number) => `motSnooze:${eventId}`;

/** Put an event off (ADR 0041) to a day up to MAX_SNOOZE_DAYS ahead, with a reason (`other` needs a note); the server checks the same. */
export function SnoozeSheet({
  visible,
  eventId,
  rule,
  customerName,
  onClose,
  onSnoozed,
}: {
  visible: boolean;
  eventId: number;
  rule: MotRule;
  customerName: string;
  onClose: () => void;
  onSnoozed: (until: string) => void;
}) {
  const { t } = useTranslation();
  const today = hongKongDay();
  const first = addDays(today, 1);
  const last = addDays(today, MAX_SNOOZE_DAYS);
  const draft = useDraft(snoozeDraftKey(eventId), isSnoozeDraft, isUntouched);
  const { notice, saved } = useDraftNotice(draft, draft.restored);
  const fresh: SnoozeDraft = { until: first, reason: 'client_unavailable', note: '' };
  const [form, setForm] = useState(draft.restored?.data ?? fresh);
  const { until, reason, note } = form;
  const set = (typed: Partial<SnoozeDraft>) => setForm((current) => ({ ...current, ...typed }));
  const [untilError, setUntilError] = useState(false);
  const [noteError, setNoteError] = useState(false);
  const snooze = useSnoozeEvent();

  useEffect(() => draft.keep(form), [draft, form]);

  const pick = (day: string) => {
    set({ until: day });
    setUntilError(false);
  };

  const submit = () => {
    const dayOk = until >= first && until <= last;
    const noteOk = reason !== 'other' || Boolean(note.trim());
    setUntilError(!dayOk);
    setNoteError(!noteOk);
    if (!dayOk || !noteOk) return;
    draft.submitting(form);
    snooze.mutate(
      { eventId, until, reason, ...(note.trim() ? { note: note.trim() } : {}) },
      {
        onSuccess: () => {
          saved();
          Toast.show({ icon: 'success', content: t('mot.snooze.success', { day: until }) });
          set({ note: '' });
          onSnoozed(until);
        },
        onError: (error) => {
          // Refused: what was typed stays, for another try; a session expiry leaves the page with the save marked unfinished.
          if (draft.failed(error, form)) onClose();
        },
      },
    );
  };

  return (
    <Popup visible={visible} onMaskClick={onClose} onClose={onClose} bodyClassName="ba-sheet mot-sheet" destroyOnClose>
      <SheetHead title={t('mot.snooze.title')} onClose={onClose} />
      <div className="ba-row mot-sheet__subject">
        <RuleTag rule={rule} />
        <span>{customerName}</span>
      </div>
      <div className="ba-sheet__body" data-testid="mot-snooze-sheet">
        {notice(() => setForm(fresh))}
        <div className="mot-field">
          <div className="mot-field__label mot-field__label--required">{t('mot.snooze.until')}</div>
          <div className="ba-choice-chips mot-presets">
            {SNOOZE_PRESETS.map((preset) => {
              const day = addDays(today, preset.days);
              return (
                <button
                  key={preset.key}
                  type="button"
                  aria-pressed={until === day}
                  className={until === day ? 'ba-choice-chip ba-hit mot-chip ba-choice-chip--on' : 'ba-choice-chip ba-hit mot-chip'}
                  data-testid={`mot-snooze-preset-${preset.key}`}
                  onClick={() => pick(day)}
                >
                  {t(`mot.snooze.presets.${preset.key}`)}
                  <small className="mot-snooze-presets__day">{day.slice(5)}</small>
                </button>
              );
            })}
          </div>
          <label className={untilError ? 'mot-field__box mot-field__box--error mot-snooze-date' : 'mot-field__box mot-snooze-date'}>
            <span className="mot-snooze-date__label">{t('mot.snooze.pickDate')}</span>
            <input
              type="date"
              className="ba-bare mot-snooze-date__input"
              data-testid="mot-snooze-date"
              min={first}
              max={last}
              value={until}
              onChange={(changed) => pick(changed.target.value)}
            />
          </label>
          <div className={untilError ? 'mot-field__error' : 'ba-caption mot-field__hint'}>
            {untilError ? t('mot.snooze.untilInvalid', { max: MAX_SNOOZE_DAYS }) : t('mot.snooze.untilHint', { max: MAX_SNOOZE_DAYS })}
          </div>
        </div>
        <div className="mot-field">
          <div className="mot-field__label mot-field__label--required">{t('mot.snooze.reason')}</div>
          <RadioButtons
            label={t('mot.snooze.reason')}
            options={SNOOZE_REASONS}
            value={reason}
            onChange={(value) => {
              set({ reason: value });
              if (value !== 'other') setNoteError(false);
            }}
            render={(option) => t(`mot.snooze.reasons.${option}`)}
            className="ba-choice-chips mot-presets mot-snooze-reasons"
            itemClassName="ba-choice-chip"
            testId="mot-snooze-reasons"
          />
        </div>
        <div className="mot-field">
          <label
            className={reason === 'other' ? 'mot-field__label mot-field__label--required' : 'mot-field__label'}
            htmlFor="mot-snooze-note"
          >
            {t('mot.snooze.note')}
          </label>
          <div className={noteError ? 'mot-field__box mot-field__box--error' : 'mot-field__box'}>
            <TextArea
              id="mot-snooze-note"
              placeholder={t('mot.snooze.notePlaceholder')}
              value={note}
              onChange={(value) => {
                set({ note: value });
                if (value.trim()) setNoteError(false);
              }}
              rows={2}
              maxLength={200}
              showCount
            />
          </div>
          {noteError && <div className="mot-field__error">{t('mot.snooze.noteRequired')}</div>}
        </div>
      </div>
      <div className="ba-sheet__foot">
        <Button
          block
          color="primary"
          shape="rounded"
          size="large"
          loading={snooze.isPending}
          onClick={submit}
          data-testid="mot-snooze-submit"
        >
          {t('mot.snooze.submit')}
        </Button>
      </div>
    </Popup>
  );
}
