import { useTranslation } from '../../shared/i18n/use-translation';
import type { HoldingItem } from '@broker/contract';
import { endpoints } from '../../shared/api/contract';
import { formatNumber } from '../../shared/format/number-format';
import { formatSignedPercent, trendOf, useMoney } from '../../shared/format/use-money';
import { securityName } from './client-format';
import { formatPrice } from '../../shared/format/price-format';
import { RecordPage, useMarketFilter } from './record-kit';
import './client-locales';
import './client.css';

function HoldingRow({ item }: { item: HoldingItem }) {
  const { t } = useTranslation();
  const money = useMoney();
  const trend = trendOf(item.unrealizedPnlHkd);
  return (
    <>
      <div className="ba-record__line">
        <span className="ba-record__title ba-ellipsis">{securityName(item.nameCn, item.nameEn, item.nameHk)}</span>
        <span className="ba-record__amount">{money.format(item.marketValueHkd)}</span>
      </div>
      <div className="ba-record__line ba-record__sub">
        <span className="ba-ellipsis">
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
          {t('client.holdings.avgCost')} <b>{formatPrice(item.avgCost, item.symbol)}</b>
        </span>
        <span>
          {t('client.holdings.lastPrice')} <b>{formatPrice(item.lastPrice, item.symbol)}</b> {item.currency}
        </span>
        <span className={`ba-trend--${trendOf(item.todayPnlHkd)}`}>
          {t('client.asset.todayPnl')} {money.formatSigned(item.todayPnlHkd)}
        </span>
      </div>
    </>
  );
}

/** Holdings, largest first, filtered by market, with totals for the filtered set. */
export default function ClientHoldingStockPage() {
  const { t } = useTranslation();
  const money = useMoney();
  const market = useMarketFilter();
  return (
    <RecordPage
      filters={[market]}
      resource="customerHolding"
      endpoint={endpoints.getHolding}
      params={(customerId) => ({ customerId, ...market.param })}
      summary={({ summary }) => ({
        items: [
          {
            label: t('client.holdings.marketValue', { ccy: money.currency }),
            value: money.format(summary.marketValueHkd),
            testId: 'summary-market-value',
          },
          {
            label: t('client.holdings.unrealizedPnl'),
            value: money.formatSigned(summary.unrealizedPnlHkd),
            tone: trendOf(summary.unrealizedPnlHkd),
          },
          {
            label: t('client.asset.todayPnl'),
            value: money.formatSigned(summary.todayPnlHkd),
            tone: trendOf(summary.todayPnlHkd),
          },
        ],
      })}
      emptyText={t('client.holdings.empty')}
      itemKey={(item) => `${item.accountNo}:${item.symbol}`}
      renderItem={(item) => <HoldingRow item={item} />}
    />
  );
}
