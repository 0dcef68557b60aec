import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from '../../shared/i18n/use-translation';
import { useQuery } from '@tanstack/react-query';
import Button from 'antd-mobile/es/components/button';
import CheckCircleFill from 'antd-mobile-icons/es/CheckCircleFill';
import { motEventIdSchema } from '@broker/contract';
import { clientName } from '@broker/domain';
import { PageFrame } from '../../shared/ui/page-frame';
import { Card } from '../../shared/ui/card';
import { EmptyState, LoadingState } from '../../shared/ui/states';
import { LoadFailedState } from '../../shared/ui/load-failed-state';
import './locales';
import { eventDetailQuery, useMarkSeen } from './mot-api';
import { describeReason, factRows } from './mot-format';
import { formatDateTime } from '../../shared/format/date-format';
import { ClientFacts, ClientHead, ClientLinks, RuleIcon, ServiceRecordBody, StatusTag } from './mot-parts';
import { HandleSheet, handleDraftKey, handleWasInterrupted, isHandleDraft } from './handle-sheet';
import { DraftChoice, UnreachableDrafts } from '../../shared/drafts/draft-choice';
import { HandledMeanwhile } from './handled-meanwhile';
import { useMoney } from '../../shared/format/use-money';
import { ReachActions } from '../reach';
import { EventRankCards } from './mot-rank-parts';
import { isSnoozeDraft, SnoozeSheet, snoozeDraftKey } from './mot-snooze-sheet';

function EventDetail({ eventId }: { eventId: number }) {
  const { t, i18n } = useTranslation();
  const detail = useQuery(eventDetailQuery(eventId));
  const navigate = useNavigate();
  const { mutate: markSeen } = useMarkSeen();
  const money = useMoney();
  // Back from a sign-in that interrupted handling this event: the sheet opens again with what was typed.
  const [sheetOpen, setSheetOpen] = useState(() => handleWasInterrupted(eventId));
  const [snoozeOpen, setSnoozeOpen] = useState(false);
  const status = detail.data?.event.status;

  // Opening an event is seeing it: new → seen (the to-do list's unseen marks follow).
  useEffect(() => {
    if (status === 'new') markSeen([eventId]);
  }, [status, eventId, markSeen]);

  if (detail.isPending)
    return (
      <PageFrame>
        <LoadingState rows={3} />
      </PageFrame>
    );
  if (detail.isError)
    return (
      <PageFrame>
        <LoadFailedState
          error={detail.error}
          subject="event"
          onRetry={() => void detail.refetch()}
          leave={{ label: t('mot.detail.backToList'), onLeave: () => void navigate('/mot/home') }}
        />
        <UnreachableDrafts draftKey={handleDraftKey(eventId)} accept={isHandleDraft} describe={(draft) => draft.note} />
        <UnreachableDrafts draftKey={snoozeDraftKey(eventId)} accept={isSnoozeDraft} describe={(draft) => draft.note} />
      </PageFrame>
    );
  const { event, customer } = detail.data;
  const handled = event.status === 'handled';

  return (
    <PageFrame
      className="mot-page"
      footer={
        !handled && (
          <div className="ba-footer-bar ba-row mot-footer mot-footer--pair">
            <Button
              shape="rounded"
              size="large"
              className="mot-footer__snooze"
              onClick={() => setSnoozeOpen(true)}
              data-testid="mot-snooze-open"
            >
              {t('mot.snooze.open')}
            </Button>
            <Button block color="primary" shape="rounded" size="large" onClick={() => setSheetOpen(true)} data-testid="mot-handle-open">
              {t('mot.detail.handle')}
            </Button>
          </div>
        )
      }
    >
      <section className="ba-row mot-event-head" data-testid="mot-event" data-status={event.status}>
        <RuleIcon rule={event.rule} size="lg" />
        <div className="ba-grow">
          <h1 className="mot-event-head__title">{t(`mot.rule.${event.rule}`)}</h1>
          <div className="mot-event-head__meta">
            {t('mot.detail.dueDate')} {event.dueDate}
            {event.snoozed && (
              <span className="ba-tag ba-tone--amber" data-testid="mot-snoozed-mark">
                {t('mot.rank.snoozed')}
              </span>
            )}
          </div>
        </div>
        <StatusTag status={event.status} />
      </section>

      {/* Handled meanwhile (elsewhere, or that very save went through): what was typed and not saved is shown. */}
      {handled && <HandledMeanwhile eventId={event.eventId} customerId={customer.customerId} saved={event.serviceRecord} />}
      {!handled && (
        <>
          <DraftChoice draftKey={handleDraftKey(event.eventId)} accept={isHandleDraft} describe={(draft) => draft.note}>
            <HandleSheet
              visible={sheetOpen}
              eventId={event.eventId}
              rule={event.rule}
              customerId={customer.customerId}
              customerName={clientName(customer)}
              onClose={() => setSheetOpen(false)}
              onHandled={() => setSheetOpen(false)}
            />
          </DraftChoice>
          <DraftChoice draftKey={snoozeDraftKey(event.eventId)} accept={isSnoozeDraft} describe={(draft) => draft.note}>
            <SnoozeSheet
              visible={snoozeOpen}
              eventId={event.eventId}
              rule={event.rule}
              customerName={clientName(customer)}
              onClose={() => setSnoozeOpen(false)}
              onSnoozed={() => setSnoozeOpen(false)}
            />
          </DraftChoice>
        </>
      )}

      {event.serviceRecord && (
        <Card
          title={
            <span className="ba-inline-row mot-handled-title">
              <CheckCircleFill /> {t('mot.detail.serviceRecord')}
            </span>
          }
          className="mot-card"
        >
          <ServiceRecordBody record={event.serviceRecord} showRule={false} />
        </Card>
      )}

      <Card title={t('mot.detail.why')} className="mot-card">
        <p className="mot-reason" data-testid="mot-reason">
          {describeReason(t, event.rule, event.facts, i18n.language, money)}
        </p>
        <dl className="mot-facts">
          {factRows(t, event.rule, event.facts, i18n.language, money).map((row) => (
            <div className="mot-facts__row" key={row.label}>
              <dt>{row.label}</dt>
              <dd>{row.value}</dd>
            </div>
          ))}
          <div className="mot-facts__row">
            <dt>{t('mot.detail.createdAt')}</dt>
            <dd>{formatDateTime(event.createdAt)}</dd>
          </div>
        </dl>
      </Card>

      <EventRankCards eventId={event.eventId} rule={event.rule} />

      <Card title={t('mot.detail.client')} className="mot-card">
        <ClientHead customer={customer} />
        <ClientFacts customer={customer} />
        <ReachActions customerId={customer.customerId} eventId={event.eventId} />
        <ClientLinks customerId={customer.customerId} withMotHistory />
      </Card>
    </PageFrame>
  );
}

/** One event: the facts and why it fired, its client with links to their pages, and handling it. */
export default function MotEventDetailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const eventId = motEventIdSchema.safeParse(params.get('eventId') ?? undefined);
  if (!eventId.success)
    return (
      <PageFrame>
        <EmptyState title={t('mot.detail.missingEvent')} description={t('mot.detail.missingEventDescription')} />
      </PageFrame>
    );
  return <EventDetail key={eventId.data} eventId={eventId.data} />;
}
