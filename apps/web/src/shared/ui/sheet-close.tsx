import CloseOutline from 'antd-mobile-icons/es/CloseOutline';
import './sheet-close.css';

/** A bottom sheet's close button, in its head's top right corner (the head is `position: relative`). */
export function SheetClose({ label, onClose }: { label: string; onClose: () => void }) {
  return (
    <button type="button" className="ba-sheet-close ba-hit" aria-label={label} onClick={onClose}>
      <CloseOutline />
    </button>
  );
}
