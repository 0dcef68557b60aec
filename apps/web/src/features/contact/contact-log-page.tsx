import { Link, useNavigate, useSearchParams } from 'react-router';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import Button from 'antd-mobile/es/components/button';
import DownlandOutline from 'antd-mobile-icons/es/DownlandOutline';
import FileOutline from 'antd-mobile-icons/es/FileOutline';
import LockOutline from 'antd-mobile-icons/es/LockOutline';
import { CONTACT_CHANNELS, type ContactChannel, type ContactRecord } from '@broker/contract';
import { useTranslation } from '../../shared/i18n/use-translation';
import { PageFrame } from '../../shared/ui/page-frame';
import { LongList } from '../../shared/ui/long-list';
import { ListFooter } from '../../shared/ui/list-footer';
import { EmptyState, LoadingState } from '../../shared/ui/states';
import { RadioButtons } from '../../shared/ui/radio-buttons';
import Toast from '../../shared/ui/antd-toast';
import { showToast } from '../../shared/api/toast';
import { oneOf, useRestorableState } from '../../shared/drafts/page-state';
import { contactClientQuery, contactLogQuery, useExportContactLog } from './contact-api';
import { ChannelLabel, ClientStrip, ContactErrorState, PurposeTag } from './contact-parts';
import { parseCustomerId } from './contact-params';
import { contactFormPath, contactPrintPath, contactRecordPath } from './contact-paths';
import { isLocked } from './contact-form';
import { formatDateTime } from '../../shared/format/date-format';
import { outcomeText } from '../../shared/format/outcome';

type ChannelFilter = 'all' | ContactChannel;
const FILTERS: readonly ChannelFilter[] = ['all', ...CONTACT_CHANNELS];
const isFilter = oneOf(FILTERS);
// Starting height (px at 375 wide) of a row; the windowed list measures each once it is on screen.
const ROW_ESTIMATE = 112;

function LogRow({ record }: { record: ContactRecord }) {
  const { t } = useTranslation();
  return (
    <Link to={contactRecordPath(record.recordId)} className="ba-clog-row" data-testid="contact-log-row" data-record-id={record.recordId}>
      <span className="ba-row">
        <ChannelLabel channel={record.channel} />
        <PurposeTag purpose={record.purpose} />
        <time className="ba-caption ba-clog-row__time">{formatDateTime(record.servedAt)}</time>
      </span>
      <span className="ba-clog-row__note">{record.note}</span>
      <span className="ba-row ba-clog-row__foot">
        {record.outcome && <span className="ba-grow ba-ellipsis">{outcomeText(record.outcome)}</span>}
        {record.nextStepDate && <span className="ba-clog-row__next">→ {record.nextStepDate}</span>}
        {record.version > 1 && <span className="ba-clog-badge ba-clog-badge--corrected">{t('contact.log.corrected')}</span>}
        {isLocked(record) && (
          <span className="ba-clog-badge" aria-label={t('contact.log.locked')}>
            <LockOutline />
          </span>
        )}
      </span>
    </Link>
  );
}

function ContactLog({ customerId }: { customerId: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [filter, setFilter] = useRestorableState<ChannelFilter>('channel', 'all', isFilter);
  const client = useQuery(contactClientQuery(customerId));
  const log = useInfiniteQuery(contactLogQuery(customerId, filter === 'all' ? null : filter));
  const exportLog = useExportContactLog();
  const records = log.data?.pages.flatMap((page) => page.list) ?? [];

  const startExport = () =>
    exportLog.mutate(customerId, {
      onSuccess: ({ records: count }) => Toast.show({ icon: 'success', content: t('contact.log.exported', { count }) }),
      onError: (error) => showToast(error.message),
    });

  const unavailable = client.isError ? client.error : log.isError && records.length === 0 ? log.error : null;
  if (unavailable) return <ContactErrorState error={unavailable} onRetry={() => void Promise.all([client.refetch(), log.refetch()])} />;

  return (
    <>
      {client.data ? (
        <ClientStrip customer={client.data.customer}>
          <span className="ba-contact-client__actions">
            <Button size="mini" fill="outline" loading={exportLog.isPending} onClick={startExport} data-testid="contact-export">
              <DownlandOutline /> {t('contact.log.export')}
            </Button>
            <Button size="mini" fill="outline" onClick={() => navigate(contactPrintPath(customerId))} data-testid="contact-print">
              <FileOutline /> {t('contact.log.print')}
            </Button>
          </span>
        </ClientStrip>
      ) : (
        <LoadingState rows={1} />
      )}
      <RadioButtons
        label={t('contact.log.filter')}
        options={FILTERS}
        value={filter}
        onChange={setFilter}
        render={(option) => (option === 'all' ? t('contact.log.all') : t(`contact.channel.${option}`))}
        className="ba-clog-filter ba-chip-row"
        itemClassName="ba-clog-filter__item"
        testId="contact-log-filter"
      />
      {log.isPending ? (
        <LoadingState rows={3} />
      ) : records.length === 0 ? (
        <EmptyState
          title={filter === 'all' ? t('contact.log.empty') : t('contact.log.emptyFiltered')}
          description={filter === 'all' ? t('contact.log.emptyDescription') : undefined}
        />
      ) : (
        <div data-testid="contact-log">
          <LongList
            items={records}
            itemKey={(record) => record.recordId}
            estimateSize={ROW_ESTIMATE}
            renderItem={(record) => <LogRow record={record} />}
          />
          <ListFooter
            hasMore={log.hasNextPage}
            fetchNextPage={log.fetchNextPage}
            labels={{ loading: t('contact.log.loading'), noMore: t('contact.log.noMore'), failed: t('contact.log.failed') }}
            testId="contact-log-footer"
          />
        </div>
      )}
    </>
  );
}

/** A client's contact log: newest contact first, by channel, endless; export for compliance, print, log another. */
export default function ContactLogPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const customerId = parseCustomerId(search);
  return (
    <PageFrame
      className="ba-contact"
      footer={
        customerId !== null && (
          <footer className="ba-footer-bar ba-footer-bar--form ba-contact-footer">
            <Button color="primary" onClick={() => navigate(contactFormPath({ customerId }))} data-testid="contact-add">
              {t('contact.log.add')}
            </Button>
          </footer>
        )
      }
    >
      {customerId === null ? (
        <EmptyState title={t('contact.noCustomer')} description={t('contact.noCustomerDescription')} />
      ) : (
        <ContactLog key={customerId} customerId={customerId} />
      )}
    </PageFrame>
  );
}
