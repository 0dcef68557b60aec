import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import ActionSheet from 'antd-mobile/es/components/action-sheet';
import { LANGUAGES, changeLanguage, currentLanguage, type Language } from '../shared/i18n/i18n';
import { AUDIT_TRAIL_PATH } from '../features/audit';

/** The key of the sheet's last action: the staff member's own audit trail, the app's one "me" page. */
const AUDIT_TRAIL_ACTION = 'auditTrail';

/** The top bar's sheet: the language picker, and "My activity"; loaded only when the user opens it. */
export default function LanguageSheet({ visible, onClose }: { visible: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const language = currentLanguage();
  return (
    <ActionSheet
      visible={visible}
      extra={t('nav.language')}
      cancelText={t('nav.cancel')}
      actions={[
        ...LANGUAGES.map((code) => ({ key: code, text: t(`language.${code}`), bold: code === language })),
        { key: AUDIT_TRAIL_ACTION, text: t('nav.auditTrail') },
      ]}
      onAction={(action) => {
        onClose();
        if (action.key === AUDIT_TRAIL_ACTION) void navigate(AUDIT_TRAIL_PATH);
        else void changeLanguage(action.key as Language);
      }}
      onClose={onClose}
    />
  );
}
