import { useTranslation } from '../../shared/i18n/use-translation';
import type { TradeItem } from '@broker/contract';
import { endpoints } from '../../shared/api/contract';
import { formatNumber } from '../../shared/format/number-format';
import { useMoney } from '../../shared/format/use-money';
import { securityName } from './client-format';
import { formatDateTime } from '../../shared/format/date-format';
import { formatPrice } from '../../shared/format/price-format';
import { RecordPage, useChoiceFilter, useMarketFilter, usePeriodFilter } from './record-kit';
import './client-locales';
import './client.css';

const SIDES = ['buy', 'sell'] as const;
const STATUSES = ['settled', 'unsettled'] as const;

function TradeRow({ item }: { item: TradeItem }) {
  const { t } = useTranslation();
  const money = useMoney();
  return (
    <>
      <div className="ba-record__line">
        <span className="ba-record__title ba-ellipsis">
          <span className={`ba-side ba-side--${item.side}`}>{t(`client.dynamic.${item.side}`)}</span>
          {securityName(item.nameCn, item.nameEn, item.nameHk)}
        </span>
        <span className="ba-record__amount">{money.format(item.amountHkd)}</span>
      </div>
      <div className="ba-record__line ba-record__sub">
        <span className="ba-ellipsis">
          {item.symbol} · {formatDateTime(item.tradedAt)}
        </span>
        <span>
          {formatNumber(item.quantity)} @ {formatPrice(item.price, item.symbol)} {item.currency}
        </span>
      </div>
      <div className="ba-record__line ba-record__sub">
        <span className="ba-ellipsis">
          <span className={item.status === 'unsettled' ? 'ba-tag ba-tone--amber' : 'ba-tag'}>{t(`client.filters.${item.status}`)}</span>{' '}
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
  const money = useMoney();
  const market = useMarketFilter();
  const side = useChoiceFilter('side', SIDES, (value) => t(`client.dynamic.${value}`));
  const status = useChoiceFilter('status', STATUSES, (value) => t(`client.filters.${value}`));
  const period = usePeriodFilter();
  return (
    <RecordPage
      filters={[market, side, status, period]}
      resource="customerTrade"
      endpoint={endpoints.getTrade}
      params={(customerId) => ({ customerId, ...market.param, ...side.param, ...status.param, ...period.range })}
      summary={({ summary }) => ({
        items: [
          { label: t('client.trades.buyAmount'), value: money.format(summary.buyAmountHkd) },
          { label: t('client.trades.sellAmount'), value: money.format(summary.sellAmountHkd) },
          { label: t('client.trades.fee'), value: money.format(summary.feeHkd) },
        ],
        note: t('client.list.unit', { ccy: money.currency }),
      })}
      emptyText={t('client.trades.empty')}
      itemKey={(item) => item.id}
      renderItem={(item) => <TradeRow item={item} />}
    />
  );
}
