import { useState } from 'react';
import { useTranslation } from '../../shared/i18n/use-translation';
import type { CustomerAsset } from '@broker/contract';
import { useMoney } from '../../shared/format/use-money';
import { formatNumber } from '../../shared/format/number-format';

const COLORS = ['#1f5eff', '#ff8f3f', '#36b37e', '#8e6cff', '#1fb6c9', '#f7b500', '#a3a9b3'];

interface Slice {
  key: string;
  label: string;
  ratio: number;
  valueHkd: number;
}

/** A donut drawn with SVG strokes: one arc per slice, circumference 100 so a ratio is its own dash length. */
function Donut({ slices, label }: { slices: Slice[]; label: string }) {
  const lengths = slices.map((slice) => Math.max(0, Math.min(100, slice.ratio * 100)));
  // Each arc starts where the previous ones end, from 12 o'clock (offset 25 on a circumference of 100).
  const offsets = lengths.map((_, index) => 25 - lengths.slice(0, index).reduce((sum, length) => sum + length, 0));
  return (
    <svg className="ba-donut" viewBox="0 0 42 42" role="img" aria-label={label}>
      <circle cx="21" cy="21" r="15.915" fill="none" stroke="#f2f3f5" strokeWidth="6" />
      {slices.map((slice, index) => (
        <circle
          key={slice.key}
          cx="21"
          cy="21"
          r="15.915"
          fill="none"
          stroke={COLORS[index % COLORS.length]}
          strokeWidth="6"
          strokeDasharray={`${lengths[index]} ${100 - (lengths[index] ?? 0)}`}
          strokeDashoffset={offsets[index]}
        />
      ))}
    </svg>
  );
}

/** Allocation by market (holdings, plus cash as its own slice) or by currency (cash and holdings). */
export function AllocationChart({ asset }: { asset: CustomerAsset }) {
  const { t } = useTranslation();
  const money = useMoney();
  const [view, setView] = useState<'market' | 'currency'>('market');
  const total = asset.totalAssetsHkd;
  const cashRatio = total > 0 ? asset.cashHkd / total : 0;
  const slices: Slice[] =
    view === 'market'
      ? [
          ...asset.byMarket.map((slice) => ({
            key: slice.key,
            label: t(`client.market.${slice.key}`, { defaultValue: slice.key }),
            ratio: slice.ratio,
            valueHkd: slice.totalHkd,
          })),
          ...(asset.cashHkd > 0 ? [{ key: 'cash', label: t('client.asset.cashSlice'), ratio: cashRatio, valueHkd: asset.cashHkd }] : []),
        ]
      : asset.byCurrency.map((slice) => ({ key: slice.key, label: slice.key, ratio: slice.ratio, valueHkd: slice.totalHkd }));
  const ordered = [...slices].sort((a, b) => b.ratio - a.ratio);

  return (
    <div className="ba-alloc" data-testid="allocation-chart">
      <div className="ba-alloc__tabs" role="tablist">
        {(['market', 'currency'] as const).map((option) => (
          <button
            key={option}
            type="button"
            role="tab"
            aria-selected={view === option}
            className={view === option ? 'ba-alloc__tab ba-alloc__tab--on' : 'ba-alloc__tab'}
            onClick={() => setView(option)}
          >
            {option === 'market' ? t('client.asset.byMarket') : t('client.asset.byCurrency')}
          </button>
        ))}
      </div>
      {ordered.length === 0 ? (
        <p className="ba-alloc__empty">{t('client.asset.noAssets')}</p>
      ) : (
        <div className="ba-alloc__body">
          <Donut slices={ordered} label={t('client.asset.chartLabel')} />
          <ul className="ba-alloc__legend">
            {ordered.map((slice, index) => (
              <li key={slice.key}>
                <span className="ba-alloc__dot" style={{ background: COLORS[index % COLORS.length] }} />
                <span className="ba-alloc__name">{slice.label}</span>
                <span className="ba-alloc__ratio">{formatNumber(slice.ratio * 100, 1)}%</span>
                <span className="ba-alloc__value">{money.format(slice.valueHkd, 0)}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
