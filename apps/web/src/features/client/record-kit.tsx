import { Fragment, type ComponentProps, type ReactNode } from 'react';
import { useTranslation } from '../../shared/i18n/use-translation';
import type { KeysUnder } from '../../shared/i18n/translator';
import { useInfiniteQuery } from '@tanstack/react-query';
import { marketValues, type RequestOf, type WireEndpoint } from '../../shared/api/contract';
import { isDayOrEmpty, oneOf } from '../../shared/drafts/page-state';
import { useUrlState } from '../../shared/drafts/url-state';
import { ListFooter } from '../../shared/ui/list-footer';
import { RadioButtons } from '../../shared/ui/radio-buttons';
import { PageFrame } from '../../shared/ui/page-frame';
import { VirtualList } from '../../shared/ui/virtual-list';
import { EmptyState, LoadingState } from '../../shared/ui/states';
import { hkDayMonthsAgo, useCustomerId } from './client-format';
import { NoCustomer } from './no-customer';
import { ClientErrorState } from './client-error-state';
import { recordListQuery, type RecordItemOf, type RecordPageOf } from './client-queries';

/** One filter as a row of chips; exactly one chip is on. */
function FilterRow<V extends string>({
  name,
  label,
  options,
  optionLabel,
  value,
  onChange,
}: {
  name: string;
  label: string;
  options: readonly V[];
  optionLabel: (option: V) => string;
  value: V;
  onChange: (value: V) => void;
}) {
  return (
    <div className="ba-row ba-frow" data-testid={`filter-${name}`}>
      <span className="ba-caption ba-frow__label">{label}</span>
      <RadioButtons
        label={label}
        options={options}
        value={value}
        onChange={onChange}
        render={optionLabel}
        className="ba-chip-row"
        itemClassName="ba-frow__chip"
      />
    </div>
  );
}

/**
 * A filter of "all" or one of `values`, as chips labelled `client.filters.<name>`; kept in the page's URL, so back, reload and a
 * sign-in round trip bring it back. `param` is what it adds to the request.
 */
export function useChoiceFilter<K extends KeysUnder<'client.filters'>, V extends string>(
  name: K,
  values: readonly V[],
  labelOf: (value: V) => string,
): { filter: ReactNode; param: Partial<Record<K, V>> } {
  const { t } = useTranslation();
  const [value, setValue] = useUrlState<V | 'all'>(name, 'all', oneOf(['all', ...values]));
  const filter = (
    <FilterRow
      name={name}
      label={t(`client.filters.${name}`)}
      options={['all', ...values]}
      optionLabel={(option) => (option === 'all' ? t('client.filters.all') : labelOf(option))}
      value={value}
      onChange={setValue}
    />
  );
  return { filter, param: (value === 'all' ? {} : { [name]: value }) as Partial<Record<K, V>> };
}

/** The market filter of the holding, trade and transfer pages. */
export function useMarketFilter() {
  const { t } = useTranslation();
  return useChoiceFilter('market', marketValues, (value) => t(`client.market.${value}`));
}

interface SummaryItem {
  label: string;
  value: string;
  tone?: 'up' | 'down' | 'flat';
  testId?: string;
}

/** The totals of the filtered set (not only the loaded page). */
function SummaryStrip({ items, note }: { items: SummaryItem[]; note?: ReactNode }) {
  return (
    <div className="ba-surface ba-summary" data-testid="record-summary">
      <dl className="ba-summary__items">
        {items.map((item) => (
          <div key={item.label}>
            <dt className="ba-caption">{item.label}</dt>
            <dd className={item.tone ? `ba-trend--${item.tone}` : undefined} data-testid={item.testId}>
              {item.value}
            </dd>
          </div>
        ))}
      </dl>
      {note && <p className="ba-small-caption ba-summary__note">{note}</p>}
    </div>
  );
}

const PERIODS = ['all', 'm1', 'm3', 'y1', 'custom'] as const;
export type Period = (typeof PERIODS)[number];
const PERIOD_MONTHS: Record<Exclude<Period, 'all' | 'custom'>, number> = { m1: 1, m3: 3, y1: 12 };

/** The HK-day range of a period; a custom range in the wrong order is read the right way round. */
export function periodRange(period: Period, from = '', to = ''): { dateFrom?: string; dateTo?: string } {
  if (period === 'all') return {};
  if (period !== 'custom') return { dateFrom: hkDayMonthsAgo(PERIOD_MONTHS[period]) };
  const [start, end] = from && to && from > to ? [to, from] : [from, to];
  return { ...(start ? { dateFrom: start } : {}), ...(end ? { dateTo: end } : {}) };
}

function DayInput({ label, value, onChange }: { label: string; value: string; onChange: (day: string) => void }) {
  return (
    <input type="date" className="ba-frow__date" aria-label={label} value={value} onChange={(event) => onChange(event.target.value)} />
  );
}

/** The period filter row (all, last 1/3/12 months, or a custom range of days) and the range it stands for. */
export function usePeriodFilter(): { filter: ReactNode; range: { dateFrom?: string; dateTo?: string } } {
  const { t } = useTranslation();
  // In the page's URL, as the other filters (useChoiceFilter).
  const [period, setPeriod] = useUrlState<Period>('period', 'all', oneOf(PERIODS));
  const [from, setFrom] = useUrlState('periodFrom', '', isDayOrEmpty);
  const [to, setTo] = useUrlState('periodTo', '', isDayOrEmpty);
  const filter = (
    <>
      <FilterRow
        name="period"
        label={t('client.filters.period')}
        options={PERIODS}
        optionLabel={(option) => t(`client.filters.periods.${option}`)}
        value={period}
        onChange={setPeriod}
      />
      {period === 'custom' && (
        <div className="ba-row ba-frow ba-frow--dates">
          <span className="ba-caption ba-frow__label" />
          <DayInput label={t('client.filters.from')} value={from} onChange={setFrom} />
          <span className="ba-caption">—</span>
          <DayInput label={t('client.filters.to')} value={to} onChange={setTo} />
        </div>
      )}
    </>
  );
  return { filter, range: periodRange(period, from, to) };
}

/** A record row's usual height at 375 px wide, for rows the virtual list has not measured yet. */
const RECORD_ROW_HEIGHT = 72;

/**
 * One record list (holdings, trades, money, transfers) of a client, paged as the user scrolls: the totals of
 * the filtered set over its rows, once there is a row; only the rows on screen are mounted.
 */
function RecordResults<E extends WireEndpoint>({
  resource,
  endpoint,
  params,
  summary,
  emptyText,
  renderItem,
  itemKey,
}: {
  resource: string;
  endpoint: E;
  params: Omit<RequestOf<E>, 'pageNum' | 'pageSize'>;
  summary: (page: RecordPageOf<E>) => { items: SummaryItem[]; note?: ReactNode };
  emptyText: string;
  renderItem: (item: RecordItemOf<E>) => ReactNode;
  itemKey: (item: RecordItemOf<E>) => string | number;
}) {
  const { t } = useTranslation();
  const query = useInfiniteQuery(recordListQuery(resource, endpoint, params));
  const first = query.data?.pages[0];
  const items = query.data?.pages.flatMap((page) => page.list) ?? [];
  return (
    <>
      {first && first.total > 0 && <SummaryStrip {...summary(first)} />}
      {query.isPending ? (
        <LoadingState rows={3} />
      ) : query.isError && items.length === 0 ? (
        <ClientErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : items.length === 0 ? (
        <EmptyState title={emptyText} />
      ) : (
        <section className="ba-surface ba-records" data-testid="record-list">
          {first && <p className="ba-caption ba-records__total">{t('client.list.total', { count: first.total })}</p>}
          <VirtualList
            items={items}
            itemKey={itemKey}
            estimateSize={RECORD_ROW_HEIGHT}
            renderItem={(item) => (
              <div className="ba-stack ba-record" data-testid="record-row">
                {renderItem(item)}
              </div>
            )}
          />
          <ListFooter
            hasMore={query.hasNextPage}
            fetchNextPage={query.fetchNextPage}
            labels={{ loading: t('client.list.loading'), noMore: t('client.list.noMore'), failed: t('client.list.loadFailed') }}
          />
        </section>
      )}
    </>
  );
}

/** A record page: its filters' rows stay on top, the client's list scrolls under them. Without a customerId, says so. */
export function RecordPage<E extends WireEndpoint>({
  filters,
  params,
  ...list
}: Omit<ComponentProps<typeof RecordResults<E>>, 'params'> & {
  filters: { filter: ReactNode }[];
  /** What the filters add to the request for the page's client. */
  params: (customerId: number) => Omit<RequestOf<E>, 'pageNum' | 'pageSize'>;
}) {
  const customerId = useCustomerId();
  if (!customerId)
    return (
      <PageFrame>
        <NoCustomer />
      </PageFrame>
    );
  return (
    <PageFrame className="ba-record-page">
      <div className="ba-record-page__filters">
        {filters.map(({ filter }, index) => (
          <Fragment key={index}>{filter}</Fragment>
        ))}
      </div>
      <RecordResults {...list} params={params(customerId)} />
    </PageFrame>
  );
}
