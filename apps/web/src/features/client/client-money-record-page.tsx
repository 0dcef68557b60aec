import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { oneOf, useRestorableState } from '../../shared/drafts/page-state';
import type { Currency, MoneyItem } from '@broker/contract';
import { currencyValues, endpoints } from '../../shared/api/contract';
import { formatNumber } from '../../shared/format/number-format';
import { trendOf, useMoney } from '../../shared/format/use-money';
import { recordListQuery } from './client-queries';
import { formatHkDateTime } from './client-format';
import { FilterRow, RecordList, RecordPage, SummaryStrip, usePeriodFilter } from './record-kit';
import './client-locales';
import './client.css';

const DIRECTIONS = ['all', 'deposit', 'withdrawal'] as const;
type Direction = (typeof DIRECTIONS)[number];
const isCurrencyFilter = oneOf(['all', ...currencyValues] as const);

function MoneyRow({ item }: { item: MoneyItem }) {
  const { t } = useTranslation();
  const money = useMoney();
  const deposit = item.direction === 'deposit';
  return (
    <>
      <div className="ba-record__line">
        <span className="ba-record__title">
          <span className={`ba-flow-badge ba-flow-badge--${item.direction}`}>{t(`client.money.${item.direction}`)}</span>
          {t(`client.money.method.${item.method}`, { defaultValue: item.method })}
        </span>
        <span className={`ba-record__amount ba-flow--${item.direction}`}>
          {deposit ? '+' : '-'}
          {money.format(item.amountHkd)}
        </span>
      </div>
      <div className="ba-record__line ba-record__sub">
        <span>
          {formatHkDateTime(item.occurredAt)} · {item.accountNo}
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
  // Filters come back after a sign-in round trip or a reload (ADR 0013).
  const [direction, setDirection] = useRestorableState<Direction>('direction', 'all', oneOf(DIRECTIONS));
  const [currency, setCurrency] = useRestorableState<Currency | 'all'>('currency', 'all', isCurrencyFilter);
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
              { value: 'deposit', label: t('client.money.deposit') },
              { value: 'withdrawal', label: t('client.money.withdrawal') },
            ]}
          />
          <FilterRow
            name="currency"
            label={t('client.filters.currency')}
            value={currency}
            onChange={setCurrency}
            options={[{ value: 'all', label: t('client.filters.all') }, ...currencyValues.map((value) => ({ value, label: value }))]}
          />
          {period.filter}
        </>
      }
    >
      {(customerId) => (
        <MoneyRecords
          customerId={customerId}
          params={{ ...(direction === 'all' ? {} : { direction }), ...(currency === 'all' ? {} : { currency }), ...period.range }}
        />
      )}
    </RecordPage>
  );
}

function MoneyRecords({
  customerId,
  params,
}: {
  customerId: number;
  params: { direction?: 'deposit' | 'withdrawal'; currency?: Currency; dateFrom?: string; dateTo?: string };
}) {
  const { t } = useTranslation();
  const money = useMoney();
  const query = useInfiniteQuery(recordListQuery('customerMoney', endpoints.getWithdrawalDeposit, { customerId, ...params }));
  const first = query.data?.pages[0];
  const items = query.data?.pages.flatMap((page) => page.list) ?? [];
  return (
    <>
      {first && first.total > 0 && (
        <SummaryStrip
          items={[
            { label: t('client.money.deposit'), value: money.format(first.summary.depositHkd) },
            { label: t('client.money.withdrawal'), value: money.format(first.summary.withdrawalHkd) },
            { label: t('client.money.net'), value: money.formatSigned(first.summary.netHkd), tone: trendOf(first.summary.netHkd) },
          ]}
          note={t('client.list.unit', { ccy: money.currency })}
        />
      )}
      <RecordList
        query={query}
        items={items}
        total={first?.total}
        emptyText={t('client.money.empty')}
        itemKey={(item) => item.id}
        renderItem={(item) => <MoneyRow item={item} />}
      />
    </>
  );
}
