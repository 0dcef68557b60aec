import { useTranslation } from '../../shared/i18n/use-translation';
import type { TransferItem } from '@broker/contract';
import { endpoints } from '../../shared/api/contract';
import { formatNumber } from '../../shared/format/number-format';
import { useMoney } from '../../shared/format/use-money';
import { securityName } from './client-format';
import { formatDate } from '../../shared/format/date-format';
import { RecordPage, useChoiceFilter, useMarketFilter, usePeriodFilter } from './record-kit';
import './client-locales';
import './client.css';

const DIRECTIONS = ['in', 'out'] as const;

function TransferRow({ item }: { item: TransferItem }) {
  const { t } = useTranslation();
  const money = useMoney();
  return (
    <>
      <div className="ba-record__line">
        <span className="ba-record__title ba-ellipsis">
          <span className={`ba-flow-badge ba-flow-badge--${item.direction === 'in' ? 'deposit' : 'withdrawal'}`}>
            {t(`client.transfers.${item.direction}`)}
          </span>
          {securityName(item.nameCn, item.nameEn, item.nameHk)}
        </span>
        <span className="ba-record__amount">{money.format(item.marketValueHkd)}</span>
      </div>
      <div className="ba-record__line ba-record__sub">
        <span className="ba-ellipsis">
          {item.symbol} · {formatDate(item.occurredAt)}
        </span>
        <span>{t('client.dynamic.shares', { qty: formatNumber(item.quantity) })}</span>
      </div>
      <div className="ba-record__line ba-record__sub">
        <span className="ba-ellipsis">{t('client.transfers.counterparty', { name: item.counterparty })}</span>
        <span>{item.accountNo}</span>
      </div>
    </>
  );
}

/** Stock transfers in and out, newest first: direction, market and period filters, totals. */
export default function ClientTransferStockPage() {
  const { t } = useTranslation();
  const money = useMoney();
  const direction = useChoiceFilter('direction', DIRECTIONS, (value) => t(`client.transfers.${value}`));
  const market = useMarketFilter();
  const period = usePeriodFilter();
  return (
    <RecordPage
      filters={[direction, market, period]}
      resource="customerTransfer"
      endpoint={endpoints.getTransfer}
      params={(customerId) => ({ customerId, ...direction.param, ...market.param, ...period.range })}
      summary={({ summary }) => ({
        items: [
          { label: t('client.transfers.inSummary', { count: summary.inCount }), value: money.format(summary.inValueHkd) },
          { label: t('client.transfers.outSummary', { count: summary.outCount }), value: money.format(summary.outValueHkd) },
        ],
        note: `${t('client.list.unit', { ccy: money.currency })} · ${t('client.transfers.valueNote')}`,
      })}
      emptyText={t('client.transfers.empty')}
      itemKey={(item) => item.id}
      renderItem={(item) => <TransferRow item={item} />}
    />
  );
}
