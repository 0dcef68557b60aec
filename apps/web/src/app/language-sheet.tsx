import { useTranslation } from 'react-i18next';
import ActionSheet from 'antd-mobile/es/components/action-sheet';
import { LANGUAGES, changeLanguage, currentLanguage, type Language } from '../shared/i18n/i18n';

/** The language picker; loaded only when the user opens it. */
export default function LanguageSheet({ visible, onClose }: { visible: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  return (
    <ActionSheet
      visible={visible}
      extra={t('nav.language')}
      cancelText={t('nav.cancel')}
      actions={LANGUAGES.map((code) => ({ key: code, text: t(`language.${code}`), bold: code === language }))}
      onAction={(action) => {
        onClose();
        void changeLanguage(action.key as Language);
      }}
      onClose={onClose}
    />
  );
}
