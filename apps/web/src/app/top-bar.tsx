import { useState } from 'react';
import { useTranslation } from '../shared/i18n/use-translation';
import NavBar from 'antd-mobile/es/components/nav-bar';
import { lazyPart, WhenLoaded } from '../shared/ui/lazy-part';
import { MeIcon } from './me-icon';

const meSheet = lazyPart(() => import('./me-sheet').then((module) => module.default));

export function TopBar({ title, showBack, onBack }: { title: string; showBack: boolean; onBack: () => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [sheetLoaded, setSheetLoaded] = useState(false);
  return (
    <header className="ba-topbar" data-testid="top-bar">
      <NavBar
        backIcon={showBack}
        back={showBack ? '' : null}
        onBack={onBack}
        right={
          <button
            type="button"
            className="ba-bare ba-topbar__me ba-hit"
            aria-label={t('me.open')}
            data-testid="me-button"
            onClick={() => {
              setSheetLoaded(true);
              setOpen(true);
            }}
          >
            <MeIcon />
          </button>
        }
      >
        <h1 className="ba-topbar__title ba-ellipsis">{title}</h1>
      </NavBar>
      {sheetLoaded && <WhenLoaded part={meSheet}>{(MeSheet) => <MeSheet visible={open} onClose={() => setOpen(false)} />}</WhenLoaded>}
    </header>
  );
}
