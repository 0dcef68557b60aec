import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import PhoneFill from 'antd-mobile-icons/es/PhoneFill';
import MessageFill from 'antd-mobile-icons/es/MessageFill';
import TeamFill from 'antd-mobile-icons/es/TeamFill';
import MailFill from 'antd-mobile-icons/es/MailFill';
import MoreOutline from 'antd-mobile-icons/es/MoreOutline';
import LockOutline from 'antd-mobile-icons/es/LockOutline';
import type { ContactChannel, ContactRecord, MotCustomerSummary } from '@broker/contract';
import { clientName } from '@broker/domain';
import { useTranslation } from '../../shared/i18n/use-translation';
import { motRuleName } from '../../shared/i18n/mot-rule-names';
import { LoadFailedState } from '../../shared/ui/load-failed-state';
import { contactRecordPath } from './contact-paths';
import { isLocked } from './contact-form';
import './contact-locales';
import '../../shared/ui/form.css';
import './contact.css';
import { formatDateTime } from '../../shared/format/date-format';
import { outcomeText } from '../../shared/format/outcome';

const CHANNEL_ICON: Record<ContactChannel, ReactNode> = {
  phone: <PhoneFill />,
  wecom: <MessageFill />,
  meeting: <TeamFill />,
  email: <MailFill />,
  other: <MoreOutline />,
};

export const channelIcon = (channel: ContactChannel) => CHANNEL_ICON[channel];

export function ChannelLabel({ channel }: { channel: ContactChannel }) {
  const { t } = useTranslation();
  return (
    <span className={`ba-inline-row ba-contact-channel ba-contact-channel--${channel}`}>
      {CHANNEL_ICON[channel]}
      {t(`contact.channel.${channel}`)}
    </span>
  );
}

/** The purposes that stand out in a list; the others are plain. */
const PURPOSE_TONE: Partial<Record<ContactRecord['purpose'], string>> = { recommendation: 'amber', complaint: 'red', follow_up: 'blue' };

export function PurposeTag({ purpose }: { purpose: ContactRecord['purpose'] }) {
  const { t } = useTranslation();
  const tone = PURPOSE_TONE[purpose];
  return <span className={tone ? `ba-tag ba-tone--${tone}` : 'ba-tag'}>{t(`contact.purpose.${purpose}`)}</span>;
}

/** A linked MOT event, named as MOT names its rule (a rule newer than this app reads as its code). */
export function EventTag({ event }: { event: Pick<ContactRecord['events'][number], 'rule' | 'dueDate'> }) {
  const { t } = useTranslation();
  return (
    <span className="ba-contact-event">
      {motRuleName(event.rule, t)}
      <small className="ba-small-caption">{event.dueDate}</small>
    </span>
  );
}

/** Who the contact was with: avatar, names, customer number. */
export function ClientStrip({ customer, children }: { customer: MotCustomerSummary; children?: ReactNode }) {
  return (
    <section className="ba-row ba-contact-client" data-testid="contact-client">
      <span className="ba-avatar ba-contact-client__avatar" aria-hidden="true">
        {clientName(customer).slice(0, 1)}
      </span>
      <span className="ba-stack ba-grow ba-contact-client__names">
        <b>{clientName(customer)}</b>
        <small className="ba-caption ba-ellipsis">
          {customer.nameCn && customer.nameEn ? `${customer.nameEn} · ` : ''}
          {customer.customerNo}
        </small>
      </span>
      {children}
    </section>
  );
}

/** A record's lock state in words: editable until when, or locked since when. */
export function LockLine({ record, now }: { record: Pick<ContactRecord, 'locked' | 'locksAt'>; now: number }) {
  const { t } = useTranslation();
  const locked = isLocked(record, now);
  return (
    <span className={locked ? 'ba-contact-lock ba-contact-lock--on' : 'ba-contact-lock'} data-testid="contact-lock" data-locked={locked}>
      {locked && <LockOutline />}
      {locked
        ? t('contact.record.lockedAt', { time: formatDateTime(record.locksAt) })
        : t('contact.record.editableUntil', { time: formatDateTime(record.locksAt) })}
    </span>
  );
}

/** The content of one version: what was discussed and everything written with it. */
export function RecordContent({ record }: { record: ContactRecord }) {
  const { t } = useTranslation();
  const rows: { key: string; label: string; value: ReactNode }[] = [];
  if (record.outcome) rows.push({ key: 'outcome', label: t('contact.form.outcome'), value: outcomeText(record.outcome) });
  if (record.nextStep)
    rows.push({
      key: 'nextStep',
      label: t('contact.form.nextStep'),
      value: (
        <>
          {record.nextStep}
          {record.nextStepDate && <span className="ba-contact-date">{record.nextStepDate}</span>}
        </>
      ),
    });
  if (record.suitability) rows.push({ key: 'suitability', label: t('contact.form.suitability'), value: record.suitability });
  if (record.events.length > 0)
    rows.push({
      key: 'events',
      label: t('contact.record.events'),
      value: (
        <span className="ba-wrap ba-contact-events">
          {record.events.map((event) => (
            <Link key={event.eventId} className="ba-hit" to={`/mot/eventDetail?eventId=${event.eventId}`}>
              <EventTag event={event} />
            </Link>
          ))}
        </span>
      ),
    });
  if (record.followsRecordId)
    rows.push({
      key: 'follows',
      label: t('contact.record.followsRecord'),
      value: (
        <Link className="ba-hit" to={contactRecordPath(record.followsRecordId)}>
          #{record.followsRecordId}
        </Link>
      ),
    });
  if (record.followUpEventId)
    rows.push({
      key: 'followUp',
      label: t('contact.record.followUpEvent'),
      value: (
        <Link className="ba-hit" to={`/mot/eventDetail?eventId=${record.followUpEventId}`}>
          {t('contact.record.openFollowUp')}
        </Link>
      ),
    });
  if (record.correctionReason) rows.push({ key: 'reason', label: t('contact.record.correctionReason'), value: record.correctionReason });
  return (
    <>
      <p className="ba-contact-note" data-testid="contact-note">
        {record.note}
      </p>
      {rows.length > 0 && (
        <dl className="ba-contact-facts">
          {rows.map((row) => (
            <div key={row.key} className={`ba-contact-facts__row ba-contact-facts__row--${row.key}`}>
              <dt>{row.label}</dt>
              <dd>{row.value}</dd>
            </div>
          ))}
        </dl>
      )}
    </>
  );
}

/** A contact page's failed load: `subject` is what did not load; an unknown or another manager's one offers the client list. */
export function ContactErrorState({
  error,
  onRetry,
  subject = 'client',
}: {
  error: unknown;
  onRetry: () => void;
  subject?: 'client' | 'record';
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <LoadFailedState
      error={error}
      subject={subject}
      onRetry={onRetry}
      leave={{ label: t('contact.backToList'), onLeave: () => navigate('/client/manage/list') }}
      testId="contact-unavailable"
    />
  );
}
