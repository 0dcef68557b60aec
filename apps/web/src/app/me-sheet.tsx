import { useState } from 'react';
import { useTranslation } from '../shared/i18n/use-translation';
import { useNavigate } from 'react-router';
import Popup from 'antd-mobile/es/components/popup';
import List from 'antd-mobile/es/components/list';
import Dialog from '../shared/ui/antd-dialog';
import Toast from '../shared/ui/antd-toast';
import { SheetClose } from '../shared/ui/sheet';
import { RadioButtons } from '../shared/ui/radio-buttons';
import { LANGUAGES, changeLanguage, currentLanguage } from '../shared/i18n/i18n';
import { endpoints } from '../shared/api/contract';
import { request } from '../shared/api/request';
import { useUser } from '../shared/session/user-store';
import { TREND_COLOURS, trendColoursFor, useTrendColoursSetting } from '../shared/format/trend-colours';
import { AUDIT_TRAIL_PATH } from '../features/audit';
import { signOutEverywhere, signOutHere } from '../features/auth';
import './me-sheet.css';
import './me-sheet-locales';

/** The top bar's "me" sheet: who is signed in, language, rise/fall colours, own activity, sign-out; loaded when opened. */
export default function MeSheet({ visible, onClose }: { visible: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const language = currentLanguage();
  const staffName = useUser((user) => user.staffName);
  const userId = useUser((user) => user.userId);
  const email = useUser((user) => user.staffEmail.email);
  // Signed out (or on the way to WeCom): only the language is there to choose.
  const signedIn = useUser((user) => user.token !== '');
  const trendColours = trendColoursFor(
    useTrendColoursSetting((setting) => setting.chosen),
    language,
  );
  const chooseTrendColours = useTrendColoursSetting((setting) => setting.choose);
  const [ending, setEnding] = useState<'here' | 'everywhere' | null>(null);

  const end = async (where: 'here' | 'everywhere') => {
    setEnding(where);
    try {
      await (where === 'here' ? signOutHere() : signOutEverywhere());
      onClose();
    } catch {
      Toast.show({ icon: 'fail', content: t('me.signOutFailed') });
    } finally {
      setEnding(null);
    }
  };

  const confirmEverywhere = async () => {
    const confirmed = await Dialog.confirm({
      title: t('me.confirmEverywhereTitle'),
      content: t('me.confirmEverywhereContent'),
      confirmText: <span className="ba-me-sheet__danger">{t('me.confirmEverywhere')}</span>,
      cancelText: t('nav.cancel'),
    });
    if (confirmed) await end('everywhere');
  };

  return (
    <Popup visible={visible} onMaskClick={onClose} onClose={onClose} bodyClassName="ba-sheet ba-me-sheet" destroyOnClose>
      <div className="ba-row ba-me-sheet__head" data-testid="me-sheet">
        {signedIn && (
          <>
            <div className="ba-avatar ba-me-sheet__avatar" aria-hidden="true">
              {staffName.slice(0, 1)}
            </div>
            <div className="ba-me-sheet__who">
              <div className="ba-caption">{t('me.signedInAs')}</div>
              <div className="ba-me-sheet__name" data-testid="me-name">
                {staffName}
              </div>
              <div className="ba-me-sheet__detail ba-ellipsis">{t('me.userId', { userId })}</div>
              {email && <div className="ba-me-sheet__detail ba-ellipsis">{email}</div>}
            </div>
          </>
        )}
        <SheetClose label={t('me.close')} onClose={onClose} />
      </div>
      <div className="ba-me-sheet__body">
        <List header={t('me.language')} mode="card">
          <List.Item arrowIcon={false}>
            <RadioButtons
              label={t('me.language')}
              options={LANGUAGES}
              value={language}
              onChange={(code) => {
                onClose();
                void changeLanguage(code);
                // The server writes the manager's WeCom cards in it (ADR 0042); a failure is mended at the next sign-in.
                if (signedIn) void request(endpoints.setMotPushSetting, { language: code }, { silent: true }).catch(() => undefined);
              }}
              render={(code) => t(`language.${code}`)}
              itemProps={(code) => ({ lang: code })}
              className="ba-me-sheet__languages"
              itemClassName="ba-me-sheet__language"
            />
          </List.Item>
        </List>
        <List header={t('me.trendColours')} mode="card">
          <List.Item arrowIcon={false}>
            <RadioButtons
              label={t('me.trendColours')}
              options={TREND_COLOURS}
              value={trendColours}
              onChange={chooseTrendColours}
              render={(colours) => t(`me.trend.${colours}`)}
              className="ba-me-sheet__languages ba-me-sheet__trends"
              itemClassName="ba-me-sheet__language"
              testId="trend-colours"
            />
          </List.Item>
        </List>
        {signedIn && (
          <>
            <List mode="card">
              <List.Item
                onClick={() => {
                  onClose();
                  void navigate(AUDIT_TRAIL_PATH);
                }}
              >
                {t('nav.auditTrail')}
              </List.Item>
            </List>
            <List mode="card">
              <List.Item
                arrowIcon={false}
                description={t('me.signOutHint')}
                disabled={ending !== null}
                onClick={() => void end('here')}
                data-testid="sign-out"
              >
                {ending === 'here' ? t('me.signingOut') : t('me.signOut')}
              </List.Item>
              <List.Item
                arrowIcon={false}
                description={t('me.signOutEverywhereHint')}
                disabled={ending !== null}
                onClick={() => void confirmEverywhere()}
                data-testid="sign-out-everywhere"
              >
                <span className="ba-me-sheet__danger">{ending === 'everywhere' ? t('me.signingOut') : t('me.signOutEverywhere')}</span>
              </List.Item>
            </List>
          </>
        )}
      </div>
    </Popup>
  );
}
