import { useState, type ReactNode } from 'react';
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from '../i18n/use-translation';
import { formatDateTime } from '../format/date-format';
import { PageFrame } from '../ui/page-frame';
import { allDrafts, readDrafts, removeDraft, takeDraft, type TabDraft } from './draft-store';
import './edit-conflict-locales';
import '../ui/form.css';
import './edit-conflict.css';

/** The drafts under `draftKey` that `accept` takes, and how to show one. */
interface DraftsOf<T> {
  draftKey: string;
  accept: (data: unknown) => data is T;
  /** What was typed, in a line or two, to tell the drafts apart. */
  describe: (data: T) => string;
}

/** Drafts of one record from several other tabs, none of this one: none is picked silently, the form waits for a pick (ADR 0013). */
export function DraftChoice<T>({
  draftKey,
  accept,
  describe,
  page = false,
  children,
}: DraftsOf<T> & {
  /** The form is a whole page: the choice is shown as one. */
  page?: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const [offered, setOffered] = useState<TabDraft<T>[] | null>(() => {
    const { mine, others } = readDrafts(draftKey, accept);
    return !mine && others.length > 1 ? others : null;
  });
  if (!offered) return children;
  const choice = (
    <section className="ba-conflict" role="alert" data-testid="draft-choice">
      <p className="ba-row ba-conflict__title">{t('draftChoice.title', { count: offered.length })}</p>
      <p className="ba-conflict__body">{t('draftChoice.body')}</p>
      <div className="ba-merge__options ba-merge__field">
        {offered.map((draft) => (
          <button
            type="button"
            key={draft.tab}
            className="ba-merge__option"
            onClick={() => {
              takeDraft(draftKey, draft);
              setOffered(null);
            }}
            data-testid="draft-choice-item"
          >
            <span className="ba-caption">{t('draftChoice.savedAt', { time: formatDateTime(draft.savedAt) })}</span>
            <span className="ba-merge__value">{describe(draft.data) || t('editConflict.empty')}</span>
          </button>
        ))}
      </div>
      <div className="ba-wrap ba-conflict__actions">
        <Button size="small" onClick={() => setOffered(null)} data-testid="draft-choice-none">
          {t('draftChoice.none')}
        </Button>
      </div>
    </section>
  );
  return page ? <PageFrame>{choice}</PageFrame> : choice;
}

/** The record's page does not open: what every tab typed for it and did not save is shown below the failure, to copy (ADR 0013). */
export function UnreachableDrafts<T>({ draftKey, accept, describe }: DraftsOf<T>) {
  const { t } = useTranslation();
  const [left, setLeft] = useState(() => allDrafts(draftKey, accept).filter((draft) => describe(draft.data).trim() !== ''));
  if (left.length === 0) return null;
  return (
    <section className="ba-conflict" role="status" data-testid="unreachable-drafts">
      <p className="ba-row ba-conflict__title">{t('drafts.unreachableTitle')}</p>
      <p className="ba-conflict__body">{t('drafts.unreachableBody')}</p>
      {left.map((draft) => (
        <p key={draft.tab} className="ba-merge__value ba-merge__quote" data-testid="unreachable-draft">
          {describe(draft.data)}
        </p>
      ))}
      <div className="ba-wrap ba-conflict__actions">
        <Button
          size="small"
          onClick={() => {
            for (const draft of left) removeDraft(draftKey, draft.tab);
            setLeft([]);
          }}
          data-testid="unreachable-discard"
        >
          {t('drafts.discard')}
        </Button>
      </div>
    </section>
  );
}
