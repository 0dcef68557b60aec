import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import Button from 'antd-mobile/es/components/button';
import type { ContactRecord } from '@broker/contract';
import { useTranslation } from '../../shared/i18n/use-translation';
import { useUser } from '../../shared/session/user-store';
import { PageFrame } from '../../shared/ui/page-frame';
import { EmptyState, WaitingState } from '../../shared/ui/states';
import { contactClientQuery, contactLogQuery } from './contact-api';
import { ContactErrorState, EventTag } from './contact-parts';
import { parseCustomerId } from './contact-params';
import { formatDateTime } from '../../shared/format/date-format';
import { outcomeText } from '../../shared/format/outcome';
import { Fact } from '../../shared/ui/fact';

/** The contract's largest page, and how many the printed log holds at most (the CSV export has every record). */
const PRINT_PAGE_SIZE = 50;
export const PRINT_MAX_RECORDS = 2000;

function PrintRow({ record }: { record: ContactRecord }) {
  const { t } = useTranslation();
  return (
    <tr data-testid="contact-print-row">
      <td className="ba-cprint__when">{formatDateTime(record.servedAt)}</td>
      <td>
        {t(`contact.channel.${record.channel}`)}
        <br />
        {t(`contact.purpose.${record.purpose}`)}
      </td>
      <td className="ba-cprint__content">
        <p className="ba-cprint__note">{record.note}</p>
        {record.outcome && (
          <p>
            <b>{t('contact.form.outcome')}</b> {outcomeText(record.outcome)}
          </p>
        )}
        {record.nextStep && (
          <p>
            <b>{t('contact.form.nextStep')}</b> {record.nextStep} {record.nextStepDate ?? ''}
          </p>
        )}
        {record.suitability && (
          <p>
            <b>{t('contact.form.suitability')}</b> {record.suitability}
          </p>
        )}
        {record.events.length > 0 && (
          <p>
            <b>{t('contact.record.events')}</b>{' '}
            {record.events.map((event) => (
              <EventTag key={event.eventId} event={event} />
            ))}
          </p>
        )}
        {record.version > 1 && (
          <p className="ba-cprint__version">
            {t('contact.record.version', { version: record.version })} · {t('contact.record.correctionReason')}:{' '}
            {record.correctionReason ?? '-'}
          </p>
        )}
      </td>
      <td>
        {record.staffName}
        <br />
        <small>{formatDateTime(record.createdAt)}</small>
      </td>
    </tr>
  );
}

function PrintableLog({ customerId }: { customerId: number }) {
  const { t } = useTranslation();
  const staffName = useUser((state) => state.staffName);
  const client = useQuery(contactClientQuery(customerId));
  const log = useInfiniteQuery(contactLogQuery(customerId, null, PRINT_PAGE_SIZE));
  const records = log.data?.pages.flatMap((page) => page.list) ?? [];
  const [printedAt] = useState(() => Date.now());
  const { hasNextPage, isFetchingNextPage, fetchNextPage, isError } = log;
  const complete = !log.isPending && (!hasNextPage || records.length >= PRINT_MAX_RECORDS);

  // A printout must hold the whole log, not the first screenful: every page is fetched before it is offered.
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && !isError && records.length < PRINT_MAX_RECORDS) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, isError, records.length, fetchNextPage]);

  const failure = client.error ?? log.error;
  if (failure) return <ContactErrorState error={failure} onRetry={() => void Promise.all([client.refetch(), log.refetch()])} />;
  if (!client.data || !complete) return <WaitingState label={t('contact.print.loading')} />;

  const { customer } = client.data;
  return (
    <article className="ba-surface ba-cprint" data-testid="contact-print">
      <div className="ba-cprint__actions">
        <Button color="primary" size="small" onClick={() => window.print()} data-testid="contact-print-now">
          {t('contact.print.print')}
        </Button>
      </div>
      <header className="ba-cprint__head">
        <h1>{t('contact.print.heading')}</h1>
        <dl>
          <Fact label={t('contact.print.client')}>
            {customer.nameCn} {customer.nameEn}
          </Fact>
          <Fact label={t('contact.print.customerNo')}>{customer.customerNo}</Fact>
          <Fact label={t('contact.print.openDate')}>{customer.openDate}</Fact>
        </dl>
        <p className="ba-cprint__meta">
          {t('contact.print.printedAt', { time: formatDateTime(printedAt) })}
          {staffName && ` · ${t('contact.print.printedBy', { name: staffName })}`} · {t('contact.print.records', { count: records.length })}
        </p>
        {hasNextPage && <p className="ba-cprint__meta">{t('contact.print.truncated', { count: records.length })}</p>}
      </header>
      {records.length === 0 ? (
        <p className="ba-cprint__empty">{t('contact.print.empty')}</p>
      ) : (
        <table className="ba-cprint__table">
          <thead>
            <tr>
              <th>{t('contact.print.columns.servedAt')}</th>
              <th>
                {t('contact.print.columns.channel')}
                <br />
                {t('contact.print.columns.purpose')}
              </th>
              <th>{t('contact.print.columns.content')}</th>
              <th>{t('contact.print.columns.staff')}</th>
            </tr>
          </thead>
          <tbody>
            {records.map((record) => (
              <PrintRow key={record.recordId} record={record} />
            ))}
          </tbody>
        </table>
      )}
    </article>
  );
}

/** A client's contact log laid out for paper (print CSS): for a compliance request, beside the CSV export. */
export default function ContactPrintPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const customerId = parseCustomerId(search);
  return (
    <PageFrame className="ba-contact ba-contact--print">
      {customerId === null ? (
        <EmptyState title={t('contact.noCustomer')} description={t('contact.noCustomerDescription')} />
      ) : (
        <PrintableLog key={customerId} customerId={customerId} />
      )}
    </PageFrame>
  );
}
