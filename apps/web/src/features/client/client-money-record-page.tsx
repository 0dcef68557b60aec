import { useTranslation } from '../../shared/i18n/use-translation';
import type { MoneyItem } from '@broker/contract';
import { currencyValues, endpoints } from '../../shared/api/contract';
import { formatNumber } from '../../shared/format/number-format';
import { trendOf, useMoney } from '../../shared/format/use-money';
import { formatDateTime } from '../../shared/format/date-format';
import { RecordPage, useChoiceFilter, usePeriodFilter } from './record-kit';
import './client-locales';
import './client.css';

const DIRECTIONS = ['deposit', 'withdrawal'] as const;

function MoneyRow({ item }: { item: MoneyItem }) {
  const { t } = useTranslation();
  const money = useMoney();
  const deposit = item.direction === 'deposit';
  return (
    <>
      <div className="ba-record__line">
        <span className="ba-record__title ba-ellipsis">
          <span className={`ba-flow-badge ba-flow-badge--${item.direction}`}>{t(`client.money.${item.direction}`)}</span>
          {t(`client.money.method.${item.method}`, { defaultValue: item.method })}
        </span>
        <span className={`ba-record__amount ba-flow--${item.direction}`}>
          {deposit ? '+' : '-'}
          {money.format(item.amountHkd)}
        </span>
      </div>
      <div className="ba-record__line ba-record__sub">
        <span className="ba-ellipsis">
          {formatDateTime(item.occurredAt)} · {item.accountNo}
        </span>
        {/* The booked amount, when it differs from what the amount above is shown in. */}
        <span>{item.currency !== money.currency && `${item.currency} ${formatNumber(item.amount, 2)}`}</span>
      </div>
    </>
  );
}

/** Deposits and withdrawals, newest first: direction, currency and period filters, totals. */
export default function ClientMoneyRecordPage() {
  const { t } = useTranslation();
  const money = useMoney();
  const direction = useChoiceFilter('direction', DIRECTIONS, (value) => t(`client.money.${value}`));
  const currency = useChoiceFilter('currency', currencyValues, (value) => value);
  const period = usePeriodFilter();
  return (
    <RecordPage
      filters={[direction, currency, period]}
      resource="customerMoney"
      endpoint={endpoints.getWithdrawalDeposit}
      params={(customerId) => ({ customerId, ...direction.param, ...currency.param, ...period.range })}
      summary={({ summary }) => ({
        items: [
          { label: t('client.money.deposit'), value: money.format(summary.depositHkd) },
          { label: t('client.money.withdrawal'), value: money.format(summary.withdrawalHkd) },
          { label: t('client.money.net'), value: money.formatSigned(summary.netHkd), tone: trendOf(summary.netHkd) },
        ],
        note: t('client.list.unit', { ccy: money.currency }),
      })}
      emptyText={t('client.money.empty')}
      itemKey={(item) => item.id}
      renderItem={(item) => <MoneyRow item={item} />}
    />
  );
}
