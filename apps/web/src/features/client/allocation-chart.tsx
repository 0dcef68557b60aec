import { useState } from 'react';
import { useTranslation } from '../../shared/i18n/use-translation';
import type { CustomerAsset } from '@broker/contract';
import { useMoney } from '../../shared/format/use-money';
import { formatPercent } from '../../shared/format/number-format';

/** The slices' colours, from the design tokens (shared/ui/tokens.css). */
const COLORS = ['primary', 'orange', 'green', 'purple', 'teal', 'yellow', 'text-faint'].map((name) => `var(--ba-${name})`);

interface Part {
  key: string;
  label: string;
  valueHkd: number;
}

interface Slice extends Part {
  /** Share of what the client holds (the positive parts), 0–1. */
  ratio: number;
}

/** A donut drawn with SVG strokes: one arc per slice, circumference 100 so a ratio is its own dash length. */
function Donut({ slices, label }: { slices: Slice[]; label: string }) {
  const lengths = slices.map((slice) => (Number.isFinite(slice.ratio) ? Math.max(0, Math.min(100, slice.ratio * 100)) : 0));
  // Each arc starts where the previous ones end, from 12 o'clock (offset 25 on a circumference of 100).
  const offsets = lengths.map((_, index) => 25 - lengths.slice(0, index).reduce((sum, length) => sum + length, 0));
  return (
    <svg className="ba-donut" viewBox="0 0 42 42" role="img" aria-label={label}>
      <circle cx="21" cy="21" r="15.915" fill="none" style={{ stroke: 'var(--ba-bg)' }} strokeWidth="6" />
      {slices.map((slice, index) => (
        <circle
          key={slice.key}
          cx="21"
          cy="21"
          r="15.915"
          fill="none"
          style={{ stroke: COLORS[index % COLORS.length] }}
          strokeWidth="6"
          strokeDasharray={`${lengths[index]} ${100 - (lengths[index] ?? 0)}`}
          strokeDashoffset={offsets[index]}
        />
      ))}
    </svg>
  );
}

/** What the client holds as slices and what they owe apart: a donut cannot draw a negative slice (ADR 0043). */
export function splitAllocation(parts: Part[]): { slices: Slice[]; owed: Part[]; heldHkd: number } {
  const held = parts.filter((part) => part.valueHkd > 0);
  const heldHkd = held.reduce((sum, part) => sum + part.valueHkd, 0);
  return {
    slices: held.map((part) => ({ ...part, ratio: part.valueHkd / heldHkd })).sort((a, b) => b.ratio - a.ratio),
    owed: parts.filter((part) => part.valueHkd < 0).sort((a, b) => a.valueHkd - b.valueHkd),
    heldHkd,
  };
}

/** Allocation by market (holdings, plus cash as its own slice) or by currency (cash and holdings). */
export function AllocationChart({ asset }: { asset: CustomerAsset }) {
  const { t } = useTranslation();
  const money = useMoney();
  const [view, setView] = useState<'market' | 'currency'>('market');
  const parts: Part[] =
    view === 'market'
      ? [
          ...asset.byMarket.map((slice) => ({
            key: slice.key,
            label: t(`client.market.${slice.key}`, { defaultValue: slice.key }),
            valueHkd: slice.totalHkd,
          })),
          ...(asset.cashHkd !== 0
            ? [{ key: 'cash', label: t(asset.cashHkd < 0 ? 'client.asset.loan' : 'client.asset.cash'), valueHkd: asset.cashHkd }]
            : []),
        ]
      : asset.byCurrency.map((slice) => ({
          key: slice.key,
          label: slice.totalHkd < 0 ? t('client.asset.owedCurrency', { ccy: slice.key }) : slice.key,
          valueHkd: slice.totalHkd,
        }));
  const { slices, owed, heldHkd } = splitAllocation(parts);

  return (
    <div className="ba-alloc" data-testid="allocation-chart">
      <div className="ba-segmented" role="tablist">
        {(['market', 'currency'] as const).map((option) => (
          <button
            key={option}
            type="button"
            role="tab"
            aria-selected={view === option}
            className={view === option ? 'ba-segmented__item ba-hit ba-segmented__item--on' : 'ba-segmented__item ba-hit'}
            onClick={() => setView(option)}
          >
            {option === 'market' ? t('client.asset.byMarket') : t('client.asset.byCurrency')}
          </button>
        ))}
      </div>
      {slices.length === 0 && owed.length === 0 ? (
        <p className="ba-muted ba-alloc__empty">{t('client.asset.noAssets')}</p>
      ) : (
        <>
          {slices.length === 0 ? (
            <p className="ba-muted ba-alloc__empty">{t('client.asset.nothingHeld')}</p>
          ) : (
            <div className="ba-row ba-alloc__body">
              <Donut slices={slices} label={t('client.asset.chartLabel')} />
              <ul className="ba-plain-list ba-stack ba-grow ba-alloc__legend">
                {slices.map((slice, index) => (
                  <li key={slice.key}>
                    <span className="ba-alloc__dot" style={{ background: COLORS[index % COLORS.length] }} />
                    <span className="ba-grow ba-alloc__name ba-ellipsis">{slice.label}</span>
                    <span className="ba-alloc__ratio">{formatPercent(slice.ratio, 1)}</span>
                    <span className="ba-alloc__value">{money.format(slice.valueHkd, 0)}</span>
                  </li>
                ))}
              </ul>
            </div>
          )}
          {owed.length > 0 && (
            <div className="ba-alloc__owed" data-testid="allocation-owed">
              <ul className="ba-plain-list ba-stack ba-alloc__legend">
                {owed.map((part) => (
                  <li key={part.key}>
                    <span className="ba-alloc__dot ba-alloc__dot--owed" />
                    <span className="ba-grow ba-alloc__name ba-ellipsis">{part.label}</span>
                    <span className="ba-alloc__value ba-alloc__value--owed">{money.format(part.valueHkd, 0)}</span>
                  </li>
                ))}
              </ul>
              <p className="ba-alloc__note">{t('client.asset.sharesOfHeld', { held: money.format(heldHkd, 0), ccy: money.currency })}</p>
            </div>
          )}
        </>
      )}
    </div>
  );
}
