import { useMutation } from '@tanstack/react-query';
import { useTranslation } from '../../shared/i18n/use-translation';
import type { Currency } from '@broker/contract';
import { currencyValues, endpoints } from '../../shared/api/contract';
import { request } from '../../shared/api/request';
import { queryClient } from '../../shared/api/query-client';
import { useAppSettings } from '../../shared/session/app-settings-store';
import { RadioButtons } from '../../shared/ui/radio-buttons';
import { defaultCurrencyQuery } from './user-settings';
import './staff-locales';
import '../../shared/ui/segmented.css';
import './currency-switcher.css';

/** HKD / USD / CNY: switches at once (amounts convert from HKD here), saves the choice, and goes back if saving fails. */
export default function CurrencySwitcher({ tone = 'plain' }: { tone?: 'plain' | 'hero' }) {
  const { t } = useTranslation();
  const currency = useAppSettings((settings) => settings.currency);
  const save = useMutation({
    mutationFn: (ccy: Currency) => request(endpoints.configureDefaultCcy, { ccy }),
    onMutate: (ccy) => {
      const previous = useAppSettings.getState().currency;
      useAppSettings.getState().update({ currency: ccy });
      return { previous };
    },
    onError: (_error, _ccy, context) => {
      if (context) useAppSettings.getState().update({ currency: context.previous });
    },
    onSuccess: (data) => queryClient.setQueryData(defaultCurrencyQuery().queryKey, data),
  });
  return (
    <RadioButtons
      label={t('staff.currency')}
      options={currencyValues}
      value={currency}
      onChange={(ccy, event) => {
        // The switcher sits on cards that open a page when tapped.
        event.stopPropagation();
        if (ccy !== currency) save.mutate(ccy);
      }}
      itemProps={(ccy) => ({ title: t(`staff.ccyName.${ccy}`) })}
      className={`ba-segmented ba-ccy ba-ccy--${tone}`}
      itemClassName="ba-segmented__item"
      testId="currency-switcher"
    />
  );
}
