import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import NavBar from 'antd-mobile/es/components/nav-bar';
import GlobalOutline from 'antd-mobile-icons/es/GlobalOutline';

const LanguageSheet = lazy(() => import('./language-sheet'));

export function TopBar({ title, showBack, onBack }: { title: string; showBack: boolean; onBack: () => void }) {
  const { t } = useTranslation();
  const [choosing, setChoosing] = useState(false);
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
            className="ba-topbar__lang"
            aria-label={t('nav.language')}
            data-testid="language-switch"
            onClick={() => {
              setSheetLoaded(true);
              setChoosing(true);
            }}
          >
            <GlobalOutline />
          </button>
        }
      >
        <h1 className="ba-topbar__title">{title}</h1>
      </NavBar>
      {sheetLoaded && (
        <Suspense fallback={null}>
          <LanguageSheet visible={choosing} onClose={() => setChoosing(false)} />
        </Suspense>
      )}
    </header>
  );
}
