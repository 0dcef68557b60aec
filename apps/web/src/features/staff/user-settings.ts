import { queryOptions } from '@tanstack/react-query';
import { endpoints } from '../../shared/api/contract';
import { request } from '../../shared/api/request';
import { queryClient } from '../../shared/api/query-client';
import { useAppSettings, type AppSettings } from '../../shared/session/app-settings-store';
import { currencyConfigFrom } from '../../shared/format/currency-config';

export const exchangeRatesQuery = () =>
  queryOptions({
    queryKey: ['exchangeRate', 'list', {}],
    queryFn: () => request(endpoints.getCurrencyExchangeRate, {}),
    staleTime: 10 * 60_000,
  });
export const defaultCurrencyQuery = () =>
  queryOptions({ queryKey: ['defaultCcy', 'detail', {}], queryFn: () => request(endpoints.getDefaultCcy, {}), staleTime: Infinity });
export const motFoldQuery = () =>
  queryOptions({ queryKey: ['motFold', 'detail', {}], queryFn: () => request(endpoints.isFold, {}), staleTime: Infinity });

/** Exchange rates, currency and MOT fold flag (docs/spec.md §4): each a silent call; a failure keeps its default, never blocks start-up. */
export async function loadUserSettings(): Promise<Partial<AppSettings>> {
  const [rates, currency, fold] = await Promise.allSettled([
    queryClient.fetchQuery(exchangeRatesQuery()),
    queryClient.fetchQuery(defaultCurrencyQuery()),
    queryClient.fetchQuery(motFoldQuery()),
  ]);
  const patch: Partial<AppSettings> = {};
  if (rates.status === 'fulfilled') patch.currencyConfig = currencyConfigFrom(rates.value);
  if (currency.status === 'fulfilled') patch.currency = currency.value.ccy;
  if (fold.status === 'fulfilled') patch.motFold = fold.value;
  useAppSettings.getState().update(patch);
  return patch;
}
