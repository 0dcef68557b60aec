import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { oneOf, useRestorableState } from '../../shared/drafts/page-state';
import type { HoldingItem, Market } from '@broker/contract';
import { endpoints, marketValues } from '../../shared/api/contract';
import { formatNumber } from '../../shared/format/number-format';
import { formatSignedPercent, trendOf, useMoney } from '../../shared/format/use-money';
import { recordListQuery } from './client-queries';
import { priceDecimals, securityName } from './client-format';
import { FilterRow, RecordList, RecordPage, SummaryStrip } from './record-kit';
import './client-locales';
import './client.css';

function HoldingRow({ item }: { item: HoldingItem }) {
  const { t } = useTranslation();
  const money = useMoney();
  const trend = trendOf(item.unrealizedPnlHkd);
  return (
    <>
      <div className="ba-record__line">
        <span className="ba-record__title">{securityName(item.nameCn, item.nameEn)}</span>
        <span className="ba-record__amount">{money.format(item.marketValueHkd)}</span>
      </div>
      <div className="ba-record__line ba-record__sub">
        <span>
          {item.symbol} · {t(`client.market.${item.market}`)}
        </span>
        <span className={`ba-trend--${trend}`}>
          {money.formatSigned(item.unrealizedPnlHkd)} {formatSignedPercent(item.unrealizedPnlRatio)}
        </span>
      </div>
      <div className="ba-record__grid">
        <span>
          {t('client.holdings.quantity')} <b>{formatNumber(item.quantity)}</b>
        </span>
        <span>
          {t('client.holdings.avgCost')} <b>{formatNumber(item.avgCost, priceDecimals(item.avgCost))}</b>
        </span>
        <span>
          {t('client.holdings.lastPrice')} <b>{formatNumber(item.lastPrice, priceDecimals(item.lastPrice))}</b> {item.currency}
        </span>
        <span className={`ba-trend--${trendOf(item.todayPnlHkd)}`}>
          {t('client.holdings.todayPnl')} {money.formatSigned(item.todayPnlHkd)}
        </span>
      </div>
    </>
  );
}

/** Holdings, largest first, filtered by market, with totals for the filtered set. */
const isMarketFilter = oneOf(['all', ...marketValues] as const);

export default function ClientHoldingStockPage() {
  const { t } = useTranslation();
  // Filters come back after a sign-in round trip or a reload (ADR 0013).
  const [market, setMarket] = useRestorableState<Market | 'all'>('market', 'all', isMarketFilter);
  return (
    <RecordPage
      filters={
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
      }
    >
      {(customerId) => <Holdings customerId={customerId} market={market} />}
    </RecordPage>
  );
}

function Holdings({ customerId, market }: { customerId: number; market: Market | 'all' }) {
  const { t } = useTranslation();
  const money = useMoney();
  const query = useInfiniteQuery(
    recordListQuery('customerHolding', endpoints.getHolding, { customerId, ...(market === 'all' ? {} : { market }) }),
  );
  const first = query.data?.pages[0];
  const items = query.data?.pages.flatMap((page) => page.list) ?? [];
  return (
    <>
      {first && first.total > 0 && (
        <SummaryStrip
          items={[
            {
              label: t('client.holdings.marketValue', { ccy: money.currency }),
              value: money.format(first.summary.marketValueHkd),
              testId: 'summary-market-value',
            },
            {
              label: t('client.holdings.unrealizedPnl'),
              value: money.formatSigned(first.summary.unrealizedPnlHkd),
              tone: trendOf(first.summary.unrealizedPnlHkd),
            },
            {
              label: t('client.holdings.todayPnl'),
              value: money.formatSigned(first.summary.todayPnlHkd),
              tone: trendOf(first.summary.todayPnlHkd),
            },
          ]}
        />
      )}
      <RecordList
        query={query}
        items={items}
        total={first?.total}
        emptyText={t('client.holdings.empty')}
        itemKey={(item) => `${item.accountNo}:${item.symbol}`}
        renderItem={(item) => <HoldingRow item={item} />}
      />
    </>
  );
}
