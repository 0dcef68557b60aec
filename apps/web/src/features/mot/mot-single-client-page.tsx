import { Link, useSearchParams } from 'react-router';
import { useTranslation } from '../../shared/i18n/use-translation';
import { useInfiniteQuery } from '@tanstack/react-query';
import RightOutline from 'antd-mobile-icons/es/RightOutline';
import { customerIdSchema, type MotEvent } from '@broker/contract';
import { PageFrame } from '../../shared/ui/page-frame';
import { LongList } from '../../shared/ui/long-list';
import { Card } from '../../shared/ui/card';
import { EmptyState, LoadingState } from '../../shared/ui/states';
import { LoadFailedState } from '../../shared/ui/load-failed-state';
import './locales';
import { motEventPath } from './mot-paths';
import { clientHistoryQuery } from './mot-api';
import { oneOf, useRestorableState } from '../../shared/drafts/page-state';
import { describeReason } from './mot-format';
import { formatDateTime } from '../../shared/format/date-format';
import { useMoney } from '../../shared/format/use-money';
import { ChannelLabel, ClientFacts, ClientHead, ClientLinks, LoadMore, RuleIcon, ServiceRecordBody, StatusTag } from './mot-parts';

function EventItem({ event }: { event: MotEvent }) {
  const { t, i18n } = useTranslation();
  const money = useMoney();
  return (
    <Link
      to={motEventPath(event.eventId)}
      className="ba-surface mot-row mot-row--timeline"
      data-testid="mot-client-event"
      data-event-id={event.eventId}
      data-status={event.status}
    >
      <RuleIcon rule={event.rule} />
      <span className="ba-stack ba-grow mot-row__who">
        <span className="ba-row mot-row__title">
          {t(`mot.rule.${event.rule}`)}
          <span className="ba-caption mot-row__due">{event.dueDate}</span>
        </span>
        <span className="mot-row__reason">{describeReason(t, event.rule, event.facts, i18n.language, money)}</span>
        {event.serviceRecord && (
          <span className="ba-stack mot-row__served">
            <span className="ba-row mot-row__served-head">
              <ChannelLabel channel={event.serviceRecord.channel} />
              <span>{formatDateTime(event.serviceRecord.servedAt)}</span>
            </span>
            <span className="mot-row__served-note ba-ellipsis">{event.serviceRecord.note}</span>
          </span>
        )}
      </span>
      <span className="ba-stack mot-row__side">
        <StatusTag status={event.status} />
      </span>
      <RightOutline className="mot-line__arrow" />
    </Link>
  );
}

// Starting heights (px at 375 wide); the windowed lists measure each row once it is on screen.
const EVENT_ITEM_ESTIMATE = 84;
const RECORD_ROW_ESTIMATE = 100;

const TABS = ['events', 'history'] as const;

function ClientHistory({ customerId }: { customerId: number }) {
  const { t } = useTranslation();
  const [tab, setTab] = useRestorableState<(typeof TABS)[number]>('tab', 'events', oneOf(TABS));
  const history = useInfiniteQuery(clientHistoryQuery(customerId));

  if (history.isPending) return <LoadingState rows={3} />;
  if (history.isError) return <LoadFailedState error={history.error} subject="client" onRetry={() => void history.refetch()} />;
  const first = history.data.pages[0]!;
  const customer = first.customer;
  const events = history.data.pages.flatMap((page) => page.list);
  const records = events.flatMap((event) => (event.serviceRecord ? [event.serviceRecord] : []));

  return (
    <>
      <Card
        className="mot-card mot-card--client"
        title={<ClientHead customer={customer} className="ba-row mot-client-head mot-client-head--title" />}
      >
        <ClientFacts customer={customer} />
        <ClientLinks customerId={customer.customerId} />
      </Card>
      <div className="ba-row mot-tabs" role="tablist">
        {TABS.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={tab === name}
            className={tab === name ? 'ba-bare mot-tabs__item ba-hit mot-tabs__item--on' : 'ba-bare mot-tabs__item ba-hit'}
            onClick={() => setTab(name)}
            data-testid={name === 'history' ? 'mot-client-history-tab' : undefined}
          >
            {t(`mot.client.${name}`)} <span className="ba-caption">{name === 'events' ? first.total : records.length}</span>
          </button>
        ))}
      </div>
      {tab === 'events' ? (
        events.length === 0 ? (
          <EmptyState title={t('mot.client.noEvents')} />
        ) : (
          <div data-testid="mot-client-events">
            <LongList
              items={events}
              itemKey={(event) => event.eventId}
              estimateSize={EVENT_ITEM_ESTIMATE}
              renderItem={(event) => <EventItem event={event} />}
            />
          </div>
        )
      ) : records.length === 0 ? (
        <EmptyState title={t('mot.client.noHistory')} />
      ) : (
        <div data-testid="mot-client-records">
          <LongList
            items={records}
            itemKey={(record) => record.recordId}
            estimateSize={RECORD_ROW_ESTIMATE}
            renderItem={(record) => (
              <div className="ba-surface mot-row mot-row--record">
                <ServiceRecordBody record={record} />
              </div>
            )}
          />
        </div>
      )}
      <LoadMore list={history} saysEnd={false} />
    </>
  );
}

/** Current client: every MOT event of one client, and the service given for each. */
export default function MotSingleClientPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const customerId = customerIdSchema.safeParse(params.get('customerId') ?? undefined);
  return (
    <PageFrame className="mot-page">
      {customerId.success ? (
        <ClientHistory key={customerId.data} customerId={customerId.data} />
      ) : (
        <EmptyState title={t('mot.client.missing')} description={t('mot.client.missingDescription')} />
      )}
    </PageFrame>
  );
}
