import { useTranslation } from '../../shared/i18n/use-translation';
import CloseOutline from 'antd-mobile-icons/es/CloseOutline';
import { formatNumber } from '../../shared/format/number-format';
import { emptyFilters, useClientFilters, type ClientFilters } from './client-filters';

interface Chip {
  key: string;
  label: string;
  clear: (filters: ClientFilters) => ClientFilters;
}

/** The filters in force, each removable on its own, and one button to clear them all. */
export function ActiveFilterChips({ onClearKeyword, onReset }: { onClearKeyword: () => void; onReset: () => void }) {
  const { t } = useTranslation();
  const filters = useClientFilters((state) => state.applied);
  const apply = useClientFilters((state) => state.apply);
  const reset = useClientFilters((state) => state.reset);
  const range = (from: string, to: string) => `${from || '…'} ${t('manage.filters.to')} ${to || '…'}`;

  const chips: Chip[] = [];
  if (filters.keyword)
    chips.push({ key: 'keyword', label: t('manage.keyword', { keyword: filters.keyword }), clear: (f) => ({ ...f, keyword: '' }) });
  for (const channel of filters.channels)
    chips.push({
      key: `channel:${channel}`,
      label: t(`manage.channel.${channel}`, { defaultValue: channel }),
      clear: (f) => ({ ...f, channels: f.channels.filter((c) => c !== channel) }),
    });
  for (const status of filters.statuses)
    chips.push({
      key: `status:${status}`,
      label: t(`manage.status.${status}`),
      clear: (f) => ({ ...f, statuses: f.statuses.filter((s) => s !== status) }),
    });
  if (filters.assetMin !== null || filters.assetMax !== null)
    chips.push({
      key: 'assets',
      label: t('manage.filters.assets', {
        range: `${range(formatNumber(filters.assetMin).replace('-', ''), formatNumber(filters.assetMax).replace('-', ''))} ${filters.assetCcy}`,
      }),
      clear: (f) => ({ ...f, assetMin: null, assetMax: null }),
    });
  if (filters.openDateFrom || filters.openDateTo)
    chips.push({
      key: 'openDate',
      label: t('manage.filters.openedBetween', { range: range(filters.openDateFrom, filters.openDateTo) }),
      clear: (f) => ({ ...f, openDateFrom: '', openDateTo: '' }),
    });
  if (filters.kycBound !== null)
    chips.push({
      key: 'kyc',
      label: filters.kycBound ? t('manage.kycBound') : t('manage.kycUnbound'),
      clear: (f) => ({ ...f, kycBound: null }),
    });
  if (filters.markets.length)
    chips.push({
      key: 'markets',
      label: t('manage.filters.holdingIn', { markets: filters.markets.map((market) => t(`manage.market.${market}`)).join('/') }),
      clear: (f) => ({ ...f, markets: [] }),
    });
  if (filters.hasHolding !== null)
    chips.push({
      key: 'holding',
      label: filters.hasHolding ? t('manage.filters.holdingYes') : t('manage.filters.holdingNo'),
      clear: (f) => ({ ...f, hasHolding: null }),
    });
  if (filters.sort !== emptyFilters().sort)
    chips.push({
      key: 'sort',
      label: t(`manage.filters.sortOptions.${filters.sort}`),
      clear: (f) => ({ ...f, sort: emptyFilters().sort }),
    });

  if (chips.length === 0) return null;
  return (
    <div className="ba-row ba-chips" data-testid="active-filters">
      <div className="ba-chip-row">
        {chips.map((chip) => (
          <button
            type="button"
            key={chip.key}
            className="ba-bare ba-inline-row ba-chip ba-hit"
            onClick={() => {
              if (chip.key === 'keyword') onClearKeyword();
              else apply(chip.clear(filters));
            }}
          >
            {chip.label}
            <CloseOutline />
          </button>
        ))}
      </div>
      <button
        type="button"
        className="ba-bare ba-caption ba-chips__reset ba-hit"
        data-testid="clear-filters"
        onClick={() => {
          reset();
          onReset();
        }}
      >
        {t('manage.clearFilters')}
      </button>
    </div>
  );
}
