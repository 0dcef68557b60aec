import { useState } from 'react';
import Button from 'antd-mobile/es/components/button';
import ExclamationCircleFill from 'antd-mobile-icons/es/ExclamationCircleFill';
import { useTranslation } from '../i18n/use-translation';
import { RadioButtons } from '../ui/radio-buttons';
import type { EditMerge, MergeChoice } from './edit-merge';
import './edit-conflict-locales';
import './draft-notice.css';
import './edit-conflict.css';

/** A notice that opens after a tap on save, at the foot of the form, is brought into view once (a stable ref). */
export const bringIntoView = (node: HTMLElement | null) => node?.scrollIntoView?.({ block: 'start' });

/**
 * A save met a newer version (ADR 0013): for each field both changed the user picks theirs, the saved one or both; fields only
 * the saved version changed are named. Nothing is merged until every field is chosen.
 */
export function EditConflict<F extends string>({
  merge: { clashes, taken },
  label,
  theirs,
  mine,
  canKeepBoth,
  onApply,
}: {
  merge: EditMerge<F>;
  /** A field as the user reads it: its label, the saved value and the user's in words. */
  label: (field: F) => string;
  theirs: (field: F) => string;
  mine: (field: F) => string;
  /** Free text and tags can keep both values. */
  canKeepBoth: (field: F) => boolean;
  onApply: (choices: Partial<Record<F, MergeChoice>>) => void;
}) {
  const { t } = useTranslation();
  const [choices, setChoices] = useState<Partial<Record<F, MergeChoice>>>({});
  const allChosen = clashes.every((field) => choices[field] !== undefined);
  const side = (label: string, value: string) => (
    <>
      <span className="ba-caption">{label}</span>
      <span className="ba-merge__value">{value || t('editConflict.empty')}</span>
    </>
  );
  return (
    <section ref={bringIntoView} className="ba-conflict" role="alert" data-testid="edit-conflict">
      <p className="ba-row ba-conflict__title">
        <ExclamationCircleFill /> {t('editConflict.title')}
      </p>
      <p className="ba-conflict__body">{t('editConflict.body')}</p>
      {clashes.map((field) => (
        <div className="ba-merge__field" key={field} data-testid="merge-field" data-field={field}>
          <p className="ba-merge__label">{label(field)}</p>
          <RadioButtons<MergeChoice | ''>
            label={label(field)}
            options={canKeepBoth(field) ? ['theirs', 'mine', 'both'] : ['theirs', 'mine']}
            value={choices[field] ?? ''}
            onChange={(choice) => setChoices({ ...choices, [field]: choice as MergeChoice })}
            className="ba-merge__options"
            itemClassName="ba-merge__option"
            render={(choice) =>
              choice === 'theirs'
                ? side(t('editConflict.theirs'), theirs(field))
                : choice === 'mine'
                  ? side(t('editConflict.mine'), mine(field))
                  : t('editConflict.both')
            }
          />
        </div>
      ))}
      {taken.length > 0 && (
        <p className="ba-merge__taken" data-testid="merge-taken">
          {t('editConflict.taken', { fields: taken.map(label).join(t('editConflict.listSeparator')) })}
        </p>
      )}
      <div className="ba-wrap ba-conflict__actions">
        <Button size="small" color="primary" disabled={!allChosen} onClick={() => onApply(choices)} data-testid="merge-apply">
          {allChosen ? t('editConflict.apply') : t('editConflict.chooseEach')}
        </Button>
      </div>
    </section>
  );
}

/** What a merge did, said once it is done: which fields now read as saved meanwhile. */
export function MergedNotice({ taken }: { taken: string[] }) {
  const { t } = useTranslation();
  return (
    <p className="ba-draft" role="status" data-testid="merge-notice">
      {taken.length > 0
        ? t('editConflict.merged', { fields: taken.join(t('editConflict.listSeparator')) })
        : t('editConflict.mergedMineOnly')}
    </p>
  );
}
