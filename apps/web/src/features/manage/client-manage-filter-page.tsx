import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../shared/i18n/use-translation';
import Selector from 'antd-mobile/es/components/selector';
import Button from 'antd-mobile/es/components/button';
import type { CustomerStatus, Market } from '@broker/contract';
import { customerStatusValues, marketValues } from '../../shared/api/contract';
import { PageFrame } from '../../shared/ui/page-frame';
import { useMoney } from '../../shared/format/use-money';
import {
  SORT_OPTIONS,
  emptyFilters,
  toFilterPayload,
  useClientFilters,
  type ClientFilters,
  type FilterPayload,
  type SortOption,
} from './client-filters';
import { channelsQuery, customerStatQuery } from './manage-queries';
import { useDebouncedValue } from '../../shared/ui/use-debounced-value';
import { SavedFiltersEditor } from './saved-filters-editor';
import './manage-locales';
import '../../shared/ui/form.css';
import './client-manage.css';

type Tri = 'any' | 'yes' | 'no';
const toTri = (value: boolean | null): Tri => (value === null ? 'any' : value ? 'yes' : 'no');
const fromTri = (value: Tri | undefined): boolean | null => (value === 'yes' ? true : value === 'no' ? false : null);
const parseAmount = (text: string): number | null => {
  const cleaned = text.replace(/,/g, '').trim();
  if (!cleaned) return null;
  const value = Number(cleaned);
  return Number.isFinite(value) && value >= 0 ? value : null;
};

function Section({ title, children, error }: { title: ReactNode; children: ReactNode; error?: string | null }) {
  return (
    <section className="ba-filter__section">
      <h3 className="ba-filter__title">{title}</h3>
      {children}
      {error && (
        <p className="ba-filter__error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

/** Every filter of the list on one page: "show results" applies them and returns to the list, its only way in (the route guard). */
export default function ClientManageFilterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const money = useMoney();
  const applied = useClientFilters((state) => state.applied);
  const apply = useClientFilters((state) => state.apply);
  const [draft, setDraft] = useState<ClientFilters>(() => applied);
  const [assetText, setAssetText] = useState(() => ({ min: applied.assetMin?.toString() ?? '', max: applied.assetMax?.toString() ?? '' }));
  const channels = useQuery(channelsQuery());
  const patch = (change: Partial<ClientFilters>) => setDraft((current) => ({ ...current, ...change }));

  const assetMin = parseAmount(assetText.min);
  const assetMax = parseAmount(assetText.max);
  const assetError = assetMin !== null && assetMax !== null && assetMin > assetMax ? t('manage.filters.assetRangeError') : null;
  const dateError =
    draft.openDateFrom && draft.openDateTo && draft.openDateFrom > draft.openDateTo ? t('manage.filters.openDateError') : null;
  // The asset range is typed in the currency on screen (and sent with it); an unchanged range keeps its own.
  const rangeChanged = assetMin !== applied.assetMin || assetMax !== applied.assetMax;
  const candidate: ClientFilters = { ...draft, assetMin, assetMax, assetCcy: rangeChanged ? money.currency : applied.assetCcy };
  const valid = !assetError && !dateError;
  const payload = JSON.stringify(toFilterPayload(candidate));
  const settledPayload = useDebouncedValue(payload, 300);
  // Asked once typing has paused, for the settled form only: a range put right within the pause would otherwise be sent
  // wrong and refused. Meanwhile the button keeps the last settled count.
  const preview = useQuery({
    ...customerStatQuery(JSON.parse(settledPayload) as FilterPayload),
    enabled: valid && settledPayload === payload,
  });
  const rangeCcy = rangeChanged || (applied.assetMin === null && applied.assetMax === null) ? money.currency : applied.assetCcy;

  const yesNo = (yes: string, no: string) => [
    { label: t('manage.filters.any'), value: 'any' as Tri },
    { label: yes, value: 'yes' as Tri },
    { label: no, value: 'no' as Tri },
  ];

  return (
    <PageFrame
      className="ba-filter"
      footer={
        <footer className="ba-footer-bar ba-filter__footer">
          <Button
            className="ba-filter__reset"
            data-testid="filter-reset"
            onClick={() => {
              setDraft({ ...emptyFilters(), keyword: draft.keyword });
              setAssetText({ min: '', max: '' });
            }}
          >
            {t('manage.filters.reset')}
          </Button>
          <Button
            color="primary"
            className="ba-filter__apply"
            data-testid="filter-apply"
            disabled={!valid}
            onClick={() => {
              apply(candidate);
              navigate(-1);
            }}
          >
            {preview.data && valid ? t('manage.filters.applyCount', { count: preview.data.clients }) : t('manage.filters.apply')}
          </Button>
        </footer>
      }
    >
      <Section title={t('manage.filters.sort')}>
        <Selector
          columns={2}
          options={SORT_OPTIONS.map((value) => ({ label: t(`manage.filters.sortOptions.${value}`), value }))}
          value={[draft.sort]}
          onChange={(values: SortOption[]) => values[0] && patch({ sort: values[0] })}
        />
      </Section>
      <Section title={t('manage.filters.channel')}>
        <Selector
          columns={3}
          multiple
          options={(channels.data ?? []).map(({ channel, clients }) => ({
            label: `${t(`manage.channel.${channel}`, { defaultValue: channel })} ${clients}`,
            value: channel,
          }))}
          value={draft.channels}
          onChange={(values: string[]) => patch({ channels: values })}
        />
      </Section>
      <Section title={t('manage.filters.status')}>
        <Selector
          columns={3}
          multiple
          options={customerStatusValues.map((value) => ({ label: t(`manage.status.${value}`), value }))}
          value={draft.statuses}
          onChange={(values: CustomerStatus[]) => patch({ statuses: values })}
        />
      </Section>
      <Section title={t('manage.filters.assetRange', { ccy: rangeCcy })} error={assetError}>
        <div className={assetError ? 'ba-row ba-filter__range--error' : 'ba-row'}>
          <input
            className="ba-grow ba-filter__input"
            inputMode="decimal"
            placeholder={t('manage.filters.assetMin')}
            aria-label={t('manage.filters.assetMin')}
            data-testid="asset-min"
            value={assetText.min}
            onChange={(event) => setAssetText((text) => ({ ...text, min: event.target.value }))}
          />
          <span className="ba-filter__dash">—</span>
          <input
            className="ba-grow ba-filter__input"
            inputMode="decimal"
            placeholder={t('manage.filters.assetMax')}
            aria-label={t('manage.filters.assetMax')}
            data-testid="asset-max"
            value={assetText.max}
            onChange={(event) => setAssetText((text) => ({ ...text, max: event.target.value }))}
          />
        </div>
      </Section>
      <Section title={t('manage.filters.openDate')} error={dateError}>
        <div className={dateError ? 'ba-row ba-filter__range--error' : 'ba-row'}>
          <input
            className="ba-grow ba-filter__input"
            type="date"
            aria-label={t('manage.filters.openDateFrom')}
            value={draft.openDateFrom}
            onChange={(event) => patch({ openDateFrom: event.target.value })}
          />
          <span className="ba-filter__dash">—</span>
          <input
            className="ba-grow ba-filter__input"
            type="date"
            aria-label={t('manage.filters.openDateTo')}
            value={draft.openDateTo}
            onChange={(event) => patch({ openDateTo: event.target.value })}
          />
        </div>
      </Section>
      <Section title={t('manage.filters.kyc')}>
        <Selector
          columns={3}
          options={yesNo(t('manage.kycBound'), t('manage.kycUnbound'))}
          value={[toTri(draft.kycBound)]}
          onChange={(values: Tri[]) => patch({ kycBound: fromTri(values[0]) })}
        />
      </Section>
      <Section title={t('manage.filters.markets')}>
        <Selector
          columns={4}
          multiple
          options={marketValues.map((value) => ({ label: t(`manage.market.${value}`), value }))}
          value={draft.markets}
          onChange={(values: Market[]) => patch({ markets: values })}
        />
      </Section>
      <Section title={t('manage.filters.hasHolding')}>
        <Selector
          columns={3}
          options={yesNo(t('manage.filters.holdingYes'), t('manage.filters.holdingNo'))}
          value={[toTri(draft.hasHolding)]}
          onChange={(values: Tri[]) => patch({ hasHolding: fromTri(values[0]) })}
        />
      </Section>
      <Section title={t('manage.saved.title')}>
        <SavedFiltersEditor current={candidate} valid={valid} />
      </Section>
    </PageFrame>
  );
}
