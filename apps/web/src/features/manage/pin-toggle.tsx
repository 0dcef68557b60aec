import { useQuery } from '@tanstack/react-query';
import StarOutline from 'antd-mobile-icons/es/StarOutline';
import StarFill from 'antd-mobile-icons/es/StarFill';
import { MAX_PINNED_CLIENTS } from '../../shared/api/contract';
import { useTranslation } from '../../shared/i18n/use-translation';
import { shortcutsQuery } from './manage-queries';
import { usePinClient } from './shortcuts-mutations';
import './shortcuts-locales';
import './shortcuts.css';

function usePin(customerId: number) {
  const { t } = useTranslation();
  const shortcuts = useQuery(shortcutsQuery());
  const pin = usePinClient(() => t('manage.pins.full', { max: MAX_PINNED_CLIENTS }));
  const pinned = shortcuts.data?.pinned.some((client) => client.customerId === customerId) ?? false;
  return {
    pinned,
    label: t(pinned ? 'manage.pins.unpin' : 'manage.pins.pinToTop'),
    ready: shortcuts.isSuccess,
    busy: pin.isPending,
    toggle: (onDone?: () => void) => pin.mutate({ customerId, pinned: !pinned }, { onSuccess: () => onDone?.() }),
  };
}

/** Pin/unpin on the client's profile header (ADR 0049): the pinned clients head the client list. */
export function PinToggle({ customerId }: { customerId: number }) {
  const { pinned, label, ready, busy, toggle } = usePin(customerId);
  // An icon (a star, as a favourite): the header already holds the names and the edit link at 320 px.
  return (
    <button
      type="button"
      className={pinned ? 'ba-bare ba-pin ba-pin--on' : 'ba-bare ba-pin'}
      aria-pressed={pinned}
      aria-label={label}
      title={label}
      disabled={!ready || busy}
      onClick={() => toggle()}
      data-testid="pin-toggle"
    >
      {pinned ? <StarFill /> : <StarOutline />}
    </button>
  );
}

/** The same as a row action of the list (the long-press sheet): a full-width line. */
export function PinAction({ customerId, onDone }: { customerId: number; onDone: () => void }) {
  const { pinned, label, ready, busy, toggle } = usePin(customerId);
  return (
    <button type="button" className="ba-pin-action" disabled={!ready || busy} onClick={() => toggle(onDone)} data-testid="pin-action">
      {pinned ? <StarFill /> : <StarOutline />}
      <span>{label}</span>
    </button>
  );
}
