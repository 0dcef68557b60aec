import { useEffect, useState } from 'react';
import { useTranslation } from '../../shared/i18n/use-translation';
import { SheetHead } from '../../shared/ui/sheet';
import { useQuery } from '@tanstack/react-query';
import Popup from 'antd-mobile/es/components/popup';
import Input from 'antd-mobile/es/components/input';
import Button from 'antd-mobile/es/components/button';
import Switch from 'antd-mobile/es/components/switch';
import Toast from '../../shared/ui/antd-toast';
import { useAppSettings } from '../../shared/session/app-settings-store';
import { formatNumber } from '../../shared/format/number-format';
import { useMoney } from '../../shared/format/use-money';
import { CurrencySwitcher } from '../staff';
import { useDraft } from '../../shared/drafts/use-draft';
import { readDraft, removeDraft } from '../../shared/drafts/draft-store';
import { useDraftNotice } from '../../shared/drafts/draft-notice';
import { DraftChoice } from '../../shared/drafts/draft-choice';
import { minCashIoQuery, motPushQuery, useSetFold, useSetMinCashIo, useSetMotPush } from './mot-api';
import './locales';
import './mot.css';
import { isObject, isText } from '../../shared/drafts/page-state';

/** The threshold as typed, kept until saved (ADR 0013). */
interface ThresholdDraft {
  amount: string;
}
const THRESHOLD_DRAFT = 'motMinCashIo';
const isThresholdDraft = (data: unknown): data is ThresholdDraft => isObject(data) && isText((data as ThresholdDraft).amount, 32);
const amountOf = (text: string) => Number(text.replace(/,/g, ''));

/** A new threshold was being saved when the session ended: the MOT home opens its settings again. */
export const thresholdWasInterrupted = () => readDraft(THRESHOLD_DRAFT, isThresholdDraft)?.submitting === true;

/** The threshold field; keyed by the saved value so it starts from it whenever that changes. */
function ThresholdField({ saved, saving, onSave }: { saved: number | undefined; saving: boolean; onSave: (amount: number) => void }) {
  const { t } = useTranslation();
  const money = useMoney();
  const savedText = saved === undefined ? '' : String(saved);
  const unchanged = (typed: ThresholdDraft) => !typed.amount.trim() || amountOf(typed.amount) === saved;
  const kept = useDraft(THRESHOLD_DRAFT, isThresholdDraft, unchanged);
  // A draft equal to the saved threshold is one whose save went through.
  const { restored, notice } = useDraftNotice(kept, kept.restored && !unchanged(kept.restored.data) ? kept.restored : null);
  const [draft, setDraft] = useState(restored?.data.amount ?? savedText);
  const [invalid, setInvalid] = useState(false);
  const amount = amountOf(draft);

  useEffect(() => kept.keep({ amount: draft }), [kept, draft]);

  const save = () => {
    if (!draft.trim() || !Number.isFinite(amount) || amount < 1 || amount > 1e12) {
      setInvalid(true);
      return;
    }
    kept.submitting({ amount: draft });
    onSave(amount);
  };

  return (
    <div className="mot-setting">
      {notice(() => {
        setDraft(savedText);
        setInvalid(false);
      })}
      <label className="mot-setting__label" htmlFor="mot-min-cash-io">
        {t('mot.settings.minCashIO')}
      </label>
      <p className="ba-caption mot-setting__desc">{t('mot.settings.minCashIODesc')}</p>
      <div className="ba-row mot-setting__row">
        <div className={invalid ? 'mot-field__box mot-field__box--error ba-row ba-grow' : 'mot-field__box ba-row ba-grow'}>
          <span className="mot-setting__ccy">HKD</span>
          <Input
            id="mot-min-cash-io"
            type="number"
            inputMode="decimal"
            value={draft}
            onChange={(value) => {
              setDraft(value);
              setInvalid(false);
            }}
          />
        </div>
        <Button color="primary" shape="rounded" loading={saving} disabled={saved !== undefined && amount === saved} onClick={save}>
          {t('mot.settings.save')}
        </Button>
      </div>
      {invalid ? (
        <div className="mot-field__error">{t('mot.settings.minCashIOInvalid')}</div>
      ) : (
        amount >= 1 && (
          <div className="ba-caption mot-setting__preview">
            HKD {formatNumber(amount, 2)}
            {/* The rule works in HKD; what that is in the chosen currency, as the event pages will show it. */}
            {money.currency !== 'HKD' && ` ≈ ${money.currency} ${money.format(amount, 0)}`}
          </div>
        )
      )}
    </div>
  );
}

/** The WeCom-card switch (ADR 0042): on by default; the quiet hours say when cards never arrive. */
function PushSetting({ visible }: { visible: boolean }) {
  const { t } = useTranslation();
  const setting = useQuery({ ...motPushQuery(), enabled: visible });
  const setPush = useSetMotPush();
  const quiet = setting.data?.quietHours;
  return (
    <div className="ba-row mot-setting mot-setting--inline" data-testid="mot-push-setting">
      <div>
        <div className="mot-setting__label" id="mot-push-label">
          {t('mot.settings.push')}
        </div>
        <p className="ba-caption mot-setting__desc">{t('mot.settings.pushDesc')}</p>
        {quiet && <p className="ba-caption mot-setting__desc">{t('mot.settings.pushQuiet', { from: quiet.from, until: quiet.until })}</p>}
      </div>
      <Switch
        aria-labelledby="mot-push-label"
        checked={setting.data?.push ?? false}
        disabled={!setting.isSuccess}
        loading={setPush.isPending}
        onChange={(checked) =>
          setPush.mutate(checked, {
            onSuccess: () => Toast.show({ icon: 'success', content: t(checked ? 'mot.settings.pushOn' : 'mot.settings.pushOff') }),
          })
        }
      />
    </div>
  );
}

/** MOT settings: the large deposit / withdrawal threshold, the fold flag and the WeCom cards. */
export function MotSettingsSheet({ visible, onClose }: { visible: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const minCashIo = useQuery({ ...minCashIoQuery(), enabled: visible });
  const fold = useAppSettings((settings) => settings.motFold);
  const setFold = useSetFold();
  // Here, not in the field: saving re-keys (remounts) the field, which would drop a per-call callback.
  const setMinCashIo = useSetMinCashIo();
  const save = (amount: number) =>
    setMinCashIo.mutate(amount, {
      onSuccess: () => {
        removeDraft(THRESHOLD_DRAFT);
        Toast.show({ icon: 'success', content: t('mot.settings.saved') });
      },
    });
  const saved = minCashIo.data?.minCashIO;

  return (
    <Popup visible={visible} onMaskClick={onClose} onClose={onClose} bodyClassName="ba-sheet mot-sheet" destroyOnClose>
      <SheetHead title={t('mot.settings.title')} onClose={onClose} />
      <div className="ba-sheet__body" data-testid="mot-settings">
        {minCashIo.isSuccess ? (
          <DraftChoice key={saved} draftKey={THRESHOLD_DRAFT} accept={isThresholdDraft} describe={(draft) => draft.amount}>
            <ThresholdField saved={saved} saving={setMinCashIo.isPending} onSave={save} />
          </DraftChoice>
        ) : (
          <div className="mot-setting mot-setting--loading">{t('state.loading')}</div>
        )}
        <div className="ba-row mot-setting mot-setting--inline">
          <div>
            <div className="mot-setting__label">{t('mot.settings.currency')}</div>
            <p className="ba-caption mot-setting__desc">{t('mot.settings.currencyDesc')}</p>
          </div>
          <CurrencySwitcher />
        </div>
        <div className="ba-row mot-setting mot-setting--inline">
          <div>
            <div className="mot-setting__label" id="mot-fold-label">
              {t('mot.settings.fold')}
            </div>
            <p className="ba-caption mot-setting__desc">{t('mot.settings.foldDesc')}</p>
          </div>
          <Switch
            aria-labelledby="mot-fold-label"
            checked={fold}
            loading={setFold.isPending}
            onChange={(checked) => setFold.mutate(checked)}
          />
        </div>
        <PushSetting visible={visible} />
      </div>
    </Popup>
  );
}
