import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { oneOf, useRestorableState } from '../../shared/drafts/page-state';
import type { Market, TransferItem } from '@broker/contract';
import { endpoints, marketValues } from '../../shared/api/contract';
import { formatNumber } from '../../shared/format/number-format';
import { useMoney } from '../../shared/format/use-money';
import { recordListQuery } from './client-queries';
import { formatHkDateTime, securityName } from './client-format';
import { FilterRow, RecordList, RecordPage, SummaryStrip, usePeriodFilter } from './record-kit';
import './client-locales';
import './client.css';

const DIRECTIONS = ['all', 'in', 'out'] as const;
type Direction = (typeof DIRECTIONS)[number];
const isMarketFilter = oneOf(['all', ...marketValues] as const);

function TransferRow({ item }: { item: TransferItem }) {
  const { t } = useTranslation();
  const money = useMoney();
  return (
    <>
      <div className="ba-record__line">
        <span className="ba-record__title">
          <span className={`ba-flow-badge ba-flow-badge--${item.direction === 'in' ? 'deposit' : 'withdrawal'}`}>
            {t(`client.transfers.${item.direction}`)}
          </span>
          {securityName(item.nameCn, item.nameEn)}
        </span>
        <span className="ba-record__amount">{money.format(item.marketValueHkd)}</span>
      </div>
      <div className="ba-record__line ba-record__sub">
        <span>
          {item.symbol} · {formatHkDateTime(item.occurredAt, false)}
        </span>
        <span>{t('client.dynamic.shares', { qty: formatNumber(item.quantity) })}</span>
      </div>
      <div className="ba-record__line ba-record__sub">
        <span>{t('client.transfers.counterparty', { name: item.counterparty })}</span>
        <span>{item.accountNo}</span>
      </div>
    </>
  );
}

/** Stock transfers in and out, newest first: direction, market and period filters, totals. */
export default function ClientTransferStockPage() {
  const { t } = useTranslation();
  // Filters come back after a sign-in round trip or a reload (ADR 0013).
  const [direction, setDirection] = useRestorableState<Direction>('direction', 'all', oneOf(DIRECTIONS));
  const [market, setMarket] = useRestorableState<Market | 'all'>('market', 'all', isMarketFilter);
  const period = usePeriodFilter();
  return (
    <RecordPage
      filters={
        <>
          <FilterRow
            name="direction"
            label={t('client.filters.direction')}
            value={direction}
            onChange={setDirection}
            options={[
              { value: 'all', label: t('client.filters.all') },
              { value: 'in', label: t('client.transfers.in') },
              { value: 'out', label: t('client.transfers.out') },
            ]}
          />
          <FilterRow
            name="market"
            label={t('client.filters.market')}
            value={market}
            onChange={setMarket}
            options={[
              { value: 'all', label: t('client.filters.all') },
              ...marketValues.map((value) => ({ value, label: t(`client.market.${value}`) })),
            ]}
          />
          {period.filter}
        </>
      }
    >
      {(customerId) => (
        <Transfers
          customerId={customerId}
          params={{ ...(direction === 'all' ? {} : { direction }), ...(market === 'all' ? {} : { market }), ...period.range }}
        />
      )}
    </RecordPage>
  );
}

function Transfers({
  customerId,
  params,
}: {
  customerId: number;
  params: { direction?: 'in' | 'out'; market?: Market; dateFrom?: string; dateTo?: string };
}) {
  const { t } = useTranslation();
  const money = useMoney();
  const query = useInfiniteQuery(recordListQuery('customerTransfer', endpoints.getTransfer, { customerId, ...params }));
  const first = query.data?.pages[0];
  const items = query.data?.pages.flatMap((page) => page.list) ?? [];
  return (
    <>
      {first && first.total > 0 && (
        <SummaryStrip
          items={[
            { label: t('client.transfers.inSummary', { count: first.summary.inCount }), value: money.format(first.summary.inValueHkd) },
            { label: t('client.transfers.outSummary', { count: first.summary.outCount }), value: money.format(first.summary.outValueHkd) },
          ]}
          note={`${t('client.list.unit', { ccy: money.currency })} · ${t('client.transfers.valueNote')}`}
        />
      )}
      <RecordList
        query={query}
        items={items}
        total={first?.total}
        emptyText={t('client.transfers.empty')}
        itemKey={(item) => item.id}
        renderItem={(item) => <TransferRow item={item} />}
      />
    </>
  );
}
