import { useState } from 'react';
import { useTranslation } from '../i18n/use-translation';
import type { StoredDraft } from './draft-owner';
import type { Draft } from './use-draft';
import './draft-notice.css';

type Shown = Pick<StoredDraft<unknown>, 'submitting'>;

/** Says the form holds restored text (after a session expiry, or an earlier visit); `onDiscard` empties it back to the record. */
function DraftNotice({ draft, onDiscard }: { draft: Shown; onDiscard?: () => void }) {
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

/** The notice of what a form's draft restored (`shown`: the form may say less), said until the draft is saved, discarded or hidden. */
export function useDraftNotice<R extends Shown>(draft: Pick<Draft<unknown>, 'saved'>, shown: R | null) {
  const [restored, setRestored] = useState(shown);
  const hide = () => setRestored(null);
  /** Saved: the draft is removed and the notice goes. */
  const saved = () => {
    draft.saved();
    hide();
  };
  return {
    restored,
    hide,
    saved,
    /** The notice, if still said; given `reset`, it offers to discard the draft, and `reset` empties the form back to the record. */
    notice: (reset?: () => void) =>
      restored && (
        <DraftNotice
          draft={restored}
          onDiscard={
            reset &&
            (() => {
              saved();
              reset();
            })
          }
        />
      ),
  };
}
