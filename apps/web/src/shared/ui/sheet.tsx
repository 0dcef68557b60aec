import CloseOutline from 'antd-mobile-icons/es/CloseOutline';
import { useTranslation } from '../i18n/use-translation';
import './sheet.css';

/** A bottom sheet's close button, in its head's top right corner (the head is `position: relative`). */
export function SheetClose({ label, onClose }: { label: string; onClose: () => void }) {
  return (
    <button type="button" className="ba-bare ba-sheet-close ba-hit" aria-label={label} onClick={onClose}>
      <CloseOutline />
    </button>
  );
}

/** A sheet's head (`ba-sheet`): its title, centred, and the close button. */
export function SheetHead({ title, onClose }: { title: string; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="ba-sheet__head">
      <h2 className="ba-sheet__title">{title}</h2>
      <SheetClose label={t('nav.cancel')} onClose={onClose} />
    </div>
  );
}
