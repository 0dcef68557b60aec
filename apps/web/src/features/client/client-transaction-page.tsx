import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { oneOf, useRestorableState } from '../../shared/drafts/page-state';
import type { Market, TradeItem } from '@broker/contract';
import { endpoints, marketValues } from '../../shared/api/contract';
import { formatNumber } from '../../shared/format/number-format';
import { useMoney } from '../../shared/format/use-money';
import { recordListQuery } from './client-queries';
import { formatHkDateTime, priceDecimals, securityName } from './client-format';
import { FilterRow, RecordList, RecordPage, SummaryStrip, usePeriodFilter } from './record-kit';
import './client-locales';
import './client.css';

const SIDES = ['all', 'buy', 'sell'] as const;
const STATUSES = ['all', 'settled', 'unsettled'] as const;
type Side = (typeof SIDES)[number];
type Status = (typeof STATUSES)[number];
const isMarketFilter = oneOf(['all', ...marketValues] as const);

function TradeRow({ item }: { item: TradeItem }) {
  const { t } = useTranslation();
  const money = useMoney();
  return (
    <>
      <div className="ba-record__line">
        <span className="ba-record__title">
          <span className={`ba-side ba-side--${item.side}`}>{t(`client.dynamic.${item.side}`)}</span>
          {securityName(item.nameCn, item.nameEn)}
        </span>
        <span className="ba-record__amount">{money.format(item.amountHkd)}</span>
      </div>
      <div className="ba-record__line ba-record__sub">
        <span>
          {item.symbol} · {formatHkDateTime(item.tradedAt)}
        </span>
        <span>
          {formatNumber(item.quantity)} @ {formatNumber(item.price, priceDecimals(item.price))} {item.currency}
        </span>
      </div>
      <div className="ba-record__line ba-record__sub">
        <span>
          <span className={`ba-tag ba-tag--${item.status}`}>{t(`client.filters.${item.status}`)}</span>{' '}
          {t('client.trades.settleDate', { date: item.settleDate })}
        </span>
        <span>
          {t('client.trades.fee')} {formatNumber(item.fee, 2)} {item.currency}
        </span>
      </div>
    </>
  );
}

/** Trades, newest first: market, side, settlement and period filters, totals for the filtered set. */
export default function ClientTransactionPage() {
  const { t } = useTranslation();
  // Filters come back after a sign-in round trip or a reload (ADR 0013).
  const [market, setMarket] = useRestorableState<Market | 'all'>('market', 'all', isMarketFilter);
  const [side, setSide] = useRestorableState<Side>('side', 'all', oneOf(SIDES));
  const [status, setStatus] = useRestorableState<Status>('status', 'all', oneOf(STATUSES));
  const period = usePeriodFilter();
  return (
    <RecordPage
      filters={
        <>
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
          <FilterRow
            name="side"
            label={t('client.filters.side')}
            value={side}
            onChange={setSide}
            options={[
              { value: 'all', label: t('client.filters.all') },
              { value: 'buy', label: t('client.dynamic.buy') },
              { value: 'sell', label: t('client.dynamic.sell') },
            ]}
          />
          <FilterRow
            name="status"
            label={t('client.filters.status')}
            value={status}
            onChange={setStatus}
            options={[
              { value: 'all', label: t('client.filters.all') },
              { value: 'settled', label: t('client.filters.settled') },
              { value: 'unsettled', label: t('client.filters.unsettled') },
            ]}
          />
          {period.filter}
        </>
      }
    >
      {(customerId) => (
        <Trades
          customerId={customerId}
          params={{
            ...(market === 'all' ? {} : { market }),
            ...(side === 'all' ? {} : { side }),
            ...(status === 'all' ? {} : { status }),
            ...period.range,
          }}
        />
      )}
    </RecordPage>
  );
}

function Trades({
  customerId,
  params,
}: {
  customerId: number;
  params: { market?: Market; side?: 'buy' | 'sell'; status?: 'settled' | 'unsettled'; dateFrom?: string; dateTo?: string };
}) {
  const { t } = useTranslation();
  const money = useMoney();
  const query = useInfiniteQuery(recordListQuery('customerTrade', endpoints.getTrade, { customerId, ...params }));
  const first = query.data?.pages[0];
  const items = query.data?.pages.flatMap((page) => page.list) ?? [];
  return (
    <>
      {first && first.total > 0 && (
        <SummaryStrip
          items={[
            { label: t('client.trades.buyAmount'), value: money.format(first.summary.buyAmountHkd) },
            { label: t('client.trades.sellAmount'), value: money.format(first.summary.sellAmountHkd) },
            { label: t('client.trades.fee'), value: money.format(first.summary.feeHkd) },
          ]}
          note={t('client.list.unit', { ccy: money.currency })}
        />
      )}
      <RecordList
        query={query}
        items={items}
        total={first?.total}
        emptyText={t('client.trades.empty')}
        itemKey={(item) => item.id}
        renderItem={(item) => <TradeRow item={item} />}
      />
    </>
  );
}
