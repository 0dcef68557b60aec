import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from '../../shared/i18n/use-translation';
import type { MotCustomerSummary, MotRule, MotStatus, ServiceChannel, ServiceRecord } from '@broker/contract';
import { clientName } from '@broker/domain';
import { useMoney } from '../../shared/format/use-money';
import Button from 'antd-mobile/es/components/button';
import GiftOutline from 'antd-mobile-icons/es/GiftOutline';
import PayCircleOutline from 'antd-mobile-icons/es/PayCircleOutline';
import HandPayCircleOutline from 'antd-mobile-icons/es/HandPayCircleOutline';
import DownlandOutline from 'antd-mobile-icons/es/DownlandOutline';
import UploadOutline from 'antd-mobile-icons/es/UploadOutline';
import ClockCircleOutline from 'antd-mobile-icons/es/ClockCircleOutline';
import HistogramOutline from 'antd-mobile-icons/es/HistogramOutline';
import BankcardOutline from 'antd-mobile-icons/es/BankcardOutline';
import StarOutline from 'antd-mobile-icons/es/StarOutline';
import UserContactOutline from 'antd-mobile-icons/es/UserContactOutline';
import CheckShieldOutline from 'antd-mobile-icons/es/CheckShieldOutline';
import PhoneFill from 'antd-mobile-icons/es/PhoneFill';
import MessageFill from 'antd-mobile-icons/es/MessageFill';
import TeamFill from 'antd-mobile-icons/es/TeamFill';
import MoreOutline from 'antd-mobile-icons/es/MoreOutline';
import UserOutline from 'antd-mobile-icons/es/UserOutline';
import FileOutline from 'antd-mobile-icons/es/FileOutline';
import RightOutline from 'antd-mobile-icons/es/RightOutline';
import ChatWrongOutline from 'antd-mobile-icons/es/ChatWrongOutline';
import CalendarOutline from 'antd-mobile-icons/es/CalendarOutline';
import MailOutline from 'antd-mobile-icons/es/MailOutline';
import ExclamationTriangleOutline from 'antd-mobile-icons/es/ExclamationTriangleOutline';
import PieOutline from 'antd-mobile-icons/es/PieOutline';
import ExclamationShieldOutline from 'antd-mobile-icons/es/ExclamationShieldOutline';
import HeartOutline from 'antd-mobile-icons/es/HeartOutline';
import './locales';
import { motClientPath } from './mot-paths';
import { formatDateTime } from '../../shared/format/date-format';
import { formatRiskLevel } from '../../shared/format/risk-level';
import '../../shared/ui/form.css';
import './mot.css';
import { outcomeText } from '../../shared/format/outcome';

/** Each event type's icon and colour family: money green/red, holdings orange, dates blue, compliance violet. */
const RULE_LOOK: Record<MotRule, { icon: ReactNode; tone: 'blue' | 'green' | 'red' | 'orange' | 'violet' | 'grey' }> = {
  birthday: { icon: <GiftOutline />, tone: 'red' },
  anniversary: { icon: <StarOutline />, tone: 'blue' },
  large_deposit: { icon: <PayCircleOutline />, tone: 'green' },
  large_withdrawal: { icon: <HandPayCircleOutline />, tone: 'orange' },
  transfer_in: { icon: <DownlandOutline />, tone: 'green' },
  transfer_out: { icon: <UploadOutline />, tone: 'orange' },
  dormant: { icon: <ClockCircleOutline />, tone: 'grey' },
  position_loss: { icon: <HistogramOutline />, tone: 'red' },
  unfunded: { icon: <BankcardOutline />, tone: 'blue' },
  id_expiry: { icon: <UserContactOutline />, tone: 'violet' },
  risk_expiry: { icon: <CheckShieldOutline />, tone: 'violet' },
  contact_removed: { icon: <ChatWrongOutline />, tone: 'orange' },
  follow_up: { icon: <CalendarOutline />, tone: 'blue' },
  negative_equity: { icon: <ExclamationTriangleOutline />, tone: 'red' },
  concentration: { icon: <PieOutline />, tone: 'orange' },
  particulars_changed_withdrawal: { icon: <ExclamationShieldOutline />, tone: 'red' },
  vulnerable_client: { icon: <HeartOutline />, tone: 'violet' },
};

export const CHANNEL_ICON: Record<ServiceChannel, ReactNode> = {
  phone: <PhoneFill />,
  wecom: <MessageFill />,
  meeting: <TeamFill />,
  email: <MailOutline />,
  other: <MoreOutline />,
};

/** The end of a MOT list: "load more" while there is more, else (if `saysEnd`) that there is no more. */
export function LoadMore({
  list,
  saysEnd,
}: {
  list: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => Promise<unknown> };
  saysEnd: boolean;
}) {
  const { t } = useTranslation();
  if (list.hasNextPage)
    return (
      <div className="mot-more">
        <Button size="small" fill="none" loading={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
          {t('mot.home.loadMore')}
        </Button>
      </div>
    );
  return saysEnd ? <div className="mot-more mot-more--end">{t('mot.home.noMore')}</div> : null;
}

export function RuleIcon({ rule, size = 'md' }: { rule: MotRule; size?: 'md' | 'lg' }) {
  return (
    <span className={`ba-icon-tile mot-rule-icon--${size} ba-tone--${RULE_LOOK[rule].tone}`} aria-hidden="true">
      {RULE_LOOK[rule].icon}
    </span>
  );
}

export function RuleTag({ rule }: { rule: MotRule }) {
  const { t } = useTranslation();
  return <span className={`mot-rule-tag ba-tone--${RULE_LOOK[rule].tone}`}>{t(`mot.rule.${rule}`)}</span>;
}

const STATUS_TONE: Record<MotStatus, string> = { new: 'red', seen: 'orange', handled: 'green' };

export function StatusTag({ status }: { status: MotStatus }) {
  const { t } = useTranslation();
  return <span className={`mot-status ba-tone--${STATUS_TONE[status]}`}>{t(`mot.status.${status}`)}</span>;
}

/** A to-do row's mark: "unread" until the event is opened, then its status. */
export function TodoMark({ status }: { status: MotStatus }) {
  const { t } = useTranslation();
  if (status !== 'new') return <StatusTag status={status} />;
  return (
    <span className="mot-unseen" data-testid="mot-unseen-mark">
      {t('mot.status.new')}
    </span>
  );
}

export function ChannelLabel({ channel }: { channel: ServiceChannel }) {
  const { t } = useTranslation();
  return (
    <span className={`mot-channel mot-channel--${channel}`}>
      {CHANNEL_ICON[channel]}
      {t(`contact.channel.${channel}`)}
    </span>
  );
}

/** One service record: when, how, what was done and with what outcome. */
export function ServiceRecordBody({
  record,
  showClient = false,
  showRule = true,
}: {
  record: ServiceRecord;
  showClient?: boolean;
  showRule?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <div className="ba-stack mot-record" data-testid="service-record">
      <div className="ba-wrap mot-record__head">
        {showClient && <span className="mot-record__client">{record.customerName}</span>}
        {showRule &&
          (record.rule ? <RuleTag rule={record.rule} /> : <span className="mot-rule-tag ba-tone--grey">{t('mot.history.noEvent')}</span>)}
        <span className="ba-caption mot-record__time">{formatDateTime(record.servedAt)}</span>
      </div>
      <p className="mot-record__note">{record.note}</p>
      <div className="ba-caption ba-row mot-record__foot">
        <ChannelLabel channel={record.channel} />
        {record.outcome && (
          <span className="mot-record__outcome ba-ellipsis">
            {t('mot.history.outcome')}：{outcomeText(record.outcome)}
          </span>
        )}
      </div>
    </div>
  );
}

/** Links to the client's pages of the client-management feature (by URL: features meet only through routes here). */
export function ClientLinks({ customerId, withMotHistory = false }: { customerId: number; withMotHistory?: boolean }) {
  const { t } = useTranslation();
  const links = [
    { to: `/client/information?customerId=${customerId}`, label: t('mot.detail.profile'), icon: <UserOutline /> },
    {
      to: `/client/information/accountDetail/transaction?customerId=${customerId}`,
      label: t('mot.detail.trades'),
      icon: <HistogramOutline />,
    },
    {
      to: `/client/information/moneyRecord/moneyRecord?customerId=${customerId}`,
      label: t('mot.detail.moneyRecords'),
      icon: <PayCircleOutline />,
    },
  ];
  return (
    <nav className="mot-links">
      {links.map((link) => (
        <Link key={link.to} to={link.to} className="ba-stack mot-links__item">
          <span className="mot-links__icon">{link.icon}</span>
          <span>{link.label}</span>
        </Link>
      ))}
      {withMotHistory && (
        <Link to={motClientPath(customerId)} className="ba-row mot-links__row" data-testid="client-all-events">
          <FileOutline />
          <span>{t('mot.detail.allEvents')}</span>
          <RightOutline className="mot-links__arrow" />
        </Link>
      )}
    </nav>
  );
}

/** Avatar, names, customer number and masked phone of an event's client. */
export function ClientHead({ customer, className = 'ba-row mot-client-head' }: { customer: MotCustomerSummary; className?: string }) {
  return (
    <span className={className}>
      <span className="ba-avatar mot-avatar mot-avatar--lg">{clientName(customer).slice(0, 1)}</span>
      <span>
        <span className="mot-client-head__name" data-testid="mot-client-name">
          {customer.nameCn} <small>{customer.nameEn}</small>
        </span>
        <span className="ba-caption mot-client-head__meta">
          {customer.customerNo}
          {customer.phone && ` · ${customer.phone}`}
        </span>
      </span>
    </span>
  );
}

/** The four facts a client manager wants before calling: assets, risk level, account age, last trade. */
export function ClientFacts({ customer }: { customer: MotCustomerSummary }) {
  const { t } = useTranslation();
  const money = useMoney();
  // Net assets below zero read as such (ADR 0043): named net assets, in the warning colour, with the word.
  const negative = customer.totalAssetsHkd < 0;
  const assets = money.format(customer.totalAssetsHkd);
  const rows: [string, string][] = [
    [
      t(negative ? 'mot.detail.netAssets' : 'mot.detail.totalAssets', { ccy: money.currency }),
      negative ? `${assets} · ${t('mot.detail.negativeEquity')}` : assets,
    ],
    [t('mot.fact.riskLevel'), formatRiskLevel(customer.riskLevel)],
    [t('mot.fact.openDate'), customer.openDate],
    [t('mot.fact.lastTradeDate'), customer.lastTradeDate ?? '-'],
  ];
  return (
    <dl className="mot-facts mot-facts--grid">
      {rows.map(([label, value], index) => (
        <div className="mot-facts__row" key={label}>
          <dt>{label}</dt>
          <dd className={negative && index === 0 ? 'mot-facts__value--negative' : undefined}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
