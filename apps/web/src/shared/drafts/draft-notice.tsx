import { useTranslation } from '../i18n/use-translation';
import type { StoredDraft } from './draft-owner';
import './draft-notice.css';

/** Says the form holds restored text (after a session expiry, or an earlier visit); `onDiscard` empties it back to the record. */
export function DraftNotice({ draft, onDiscard }: { draft: Pick<StoredDraft<unknown>, 'submitting'>; onDiscard?: () => void }) {
  const { t } = useTranslation();
  return (
    <div className={draft.submitting ? 'ba-draft ba-tone--amber' : 'ba-draft'} role="status" data-testid="draft-notice">
      <span className="ba-grow">{draft.submitting ? t('drafts.interrupted') : t('drafts.restored')}</span>
      {onDiscard && (
        <button type="button" className="ba-bare ba-draft__discard" onClick={onDiscard} data-testid="draft-discard">
          {t('drafts.discard')}
        </button>
      )}
    </div>
  );
}
