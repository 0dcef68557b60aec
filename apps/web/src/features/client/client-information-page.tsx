import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { IconLinks, type IconLink } from '../../shared/ui/icon-links';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from '../../shared/i18n/use-translation';
import EditSOutline from 'antd-mobile-icons/es/EditSOutline';
import PieOutline from 'antd-mobile-icons/es/PieOutline';
import UnorderedListOutline from 'antd-mobile-icons/es/UnorderedListOutline';
import PayCircleOutline from 'antd-mobile-icons/es/PayCircleOutline';
import SendOutline from 'antd-mobile-icons/es/SendOutline';
import RightOutline from 'antd-mobile-icons/es/RightOutline';
import FileOutline from 'antd-mobile-icons/es/FileOutline';
import AddOutline from 'antd-mobile-icons/es/AddOutline';
import type { CustomerAsset, CustomerBaseInfo, CustomerProfile } from '@broker/contract';
import { clientName } from '@broker/domain';
import { PageFrame } from '../../shared/ui/page-frame';
import { Card } from '../../shared/ui/card';
import { LoadingState } from '../../shared/ui/states';
import { formatSignedPercent, trendOf, useMoney } from '../../shared/format/use-money';
import { formatRiskLevel } from '../../shared/format/risk-level';
import { CurrencySwitcher } from '../staff';
import { ReachActions } from '../reach';
import { pinToggle } from '../manage';
import { WhenLoaded } from '../../shared/ui/lazy-part';
import { assetQuery, baseInfoQuery, profileQuery } from './client-queries';
import { CLIENT_PATHS, useCustomerId, withCustomer } from './client-format';
import { TimelineCard } from './client-timeline';
import { contactFormPath, contactLogPath } from '../contact';
import { AllocationChart } from './allocation-chart';
import { NoCustomer } from './no-customer';
import { ClientErrorState } from './client-error-state';
import './client-locales';
import './client.css';

function ProfileHeader({ profile }: { profile: CustomerProfile }) {
  const { t } = useTranslation();
  return (
    <section className="ba-profile" data-testid="profile-header">
      <div className="ba-row ba-profile__top">
        <span className="ba-avatar ba-profile__avatar" aria-hidden>
          {clientName(profile).slice(0, 1)}
        </span>
        <div className="ba-grow">
          <h2 className="ba-profile__name" data-testid="profile-name">
            {profile.nameCn}
            {profile.gender && <span className="ba-profile__title">{t(`client.gender.${profile.gender}`, { defaultValue: '' })}</span>}
          </h2>
          <p className="ba-profile__name-en" data-testid="profile-name-en">
            {profile.nameEn}
          </p>
        </div>
        <WhenLoaded part={pinToggle}>{(PinToggle) => <PinToggle customerId={profile.customerId} />}</WhenLoaded>
        <Link className="ba-profile__edit ba-hit" to={withCustomer(CLIENT_PATHS.edit, profile.customerId)} data-testid="profile-edit">
          <EditSOutline />
          {t('client.editProfile')}
        </Link>
      </div>
      <div className="ba-wrap ba-profile__tags">
        <span className={`ba-tag ba-tag--${profile.status}`}>{t(`client.status.${profile.status}`)}</span>
        <span className="ba-tag ba-tone--violet">
          {t(`client.risk.${profile.riskLevel}`, { defaultValue: formatRiskLevel(profile.riskLevel) })}
        </span>
        {profile.kycBound &&
          (profile.kycStale ? (
            <span className="ba-tag ba-tone--amber" data-testid="profile-kyc-stale">
              {t('client.kycStale')}
            </span>
          ) : (
            <span className="ba-tag ba-tone--blue">{t('client.kycBound')}</span>
          ))}
        {profile.tags.map((tag) => (
          <span className="ba-tag" key={tag}>
            {tag}
          </span>
        ))}
      </div>
      <p className="ba-caption ba-wrap ba-profile__meta">
        <span>{profile.customerNo}</span>
        <span>{t('client.openedOn', { date: profile.openDate })}</span>
      </p>
      {/* The phone, masked, sits with the actions that reveal or dial it (ADR 0039). */}
      <ReachActions customerId={profile.customerId} />
    </section>
  );
}

/** Total, cash, market value, today's P/L and the allocation; negative net assets said in words (ADR 0043). */
export function AssetCard({ asset }: { asset: CustomerAsset }) {
  const { t } = useTranslation();
  const money = useMoney();
  const pnlTrend = trendOf(asset.todayPnlHkd);
  // Net assets below zero: a margin loan larger than what the client holds. Said in words, not only by a minus sign.
  const negative = asset.totalAssetsHkd < 0;
  return (
    <Card
      title={t('client.asset.title')}
      titleDesc={asset.priceDate ? t('client.asset.priceDate', { date: asset.priceDate }) : undefined}
      extra={<CurrencySwitcher />}
      className="ba-card--asset"
    >
      <p className="ba-caption ba-asset__label">
        {t(negative ? 'client.asset.netTotal' : 'client.asset.total', { ccy: money.currency })}
        {negative && <span className="ba-tag ba-tag--negative ba-tone--red">{t('client.asset.negativeTag')}</span>}
      </p>
      <p className={negative ? 'ba-total ba-asset__total--negative' : 'ba-total'} data-testid="asset-total">
        {money.format(asset.totalAssetsHkd)}
      </p>
      {negative && (
        <p className="ba-asset__warning" role="alert" data-testid="asset-negative">
          {t('client.asset.negativeWarning', { ccy: money.currency, shortfall: money.format(-asset.totalAssetsHkd) })}
        </p>
      )}
      <dl className="ba-asset__figures">
        <div>
          <dt className="ba-caption">{t(asset.cashHkd < 0 ? 'client.asset.loan' : 'client.asset.cash')}</dt>
          <dd>{money.format(asset.cashHkd)}</dd>
        </div>
        <div>
          <dt className="ba-caption">{t('client.asset.marketValue')}</dt>
          <dd>{money.format(asset.marketValueHkd)}</dd>
        </div>
        <div>
          <dt className="ba-caption">{t('client.asset.todayPnl')}</dt>
          <dd className={`ba-trend--${pnlTrend}`}>
            {money.formatSigned(asset.todayPnlHkd)}
            <small>{formatSignedPercent(asset.todayPnlRatio)}</small>
          </dd>
        </div>
      </dl>
      <AllocationChart asset={asset} />
    </Card>
  );
}

function DetailLinks({ customerId }: { customerId: number }) {
  const { t } = useTranslation();
  const links: IconLink[] = [
    { to: CLIENT_PATHS.holdings, label: t('client.links.holdings'), icon: <PieOutline />, tone: 'blue', testId: 'link-holdings' },
    { to: CLIENT_PATHS.trades, label: t('client.links.trades'), icon: <UnorderedListOutline />, tone: 'violet', testId: 'link-trades' },
    { to: CLIENT_PATHS.money, label: t('client.links.money'), icon: <PayCircleOutline />, tone: 'orange', testId: 'link-money' },
    { to: CLIENT_PATHS.transfers, label: t('client.links.transfers'), icon: <SendOutline />, tone: 'green', testId: 'link-transfers' },
  ];
  return (
    <IconLinks
      links={links.map((link) => ({ ...link, to: withCustomer(link.to, customerId) }))}
      className="ba-surface ba-card ba-detail-links"
    />
  );
}

/** The client's contact log (ADR 0038), and logging a new contact straight away. */
function ContactLogLink({ customerId }: { customerId: number }) {
  const { t } = useTranslation();
  return (
    <div className="ba-surface ba-card ba-row ba-contact-entry">
      <Link className="ba-grow ba-contact-entry__log" to={contactLogPath(customerId)} data-testid="link-contact-log">
        <span className="ba-icon-tile ba-contact-entry__icon" aria-hidden>
          <FileOutline />
        </span>
        <span className="ba-stack ba-grow ba-contact-entry__text">
          <b>{t('client.contactLog.title')}</b>
          <small className="ba-caption">{t('client.contactLog.hint')}</small>
        </span>
        <RightOutline className="ba-contact-entry__arrow" />
      </Link>
      <Link className="ba-contact-entry__add ba-hit" to={contactFormPath({ customerId })} data-testid="link-contact-new">
        <AddOutline />
        {t('client.contactLog.add')}
      </Link>
    </div>
  );
}

function BaseInfoCard({ info }: { info: CustomerBaseInfo }) {
  const { t } = useTranslation();
  const none = <span className="ba-muted">{t('client.base.none')}</span>;
  const rows = [
    { label: t('client.base.customerNo'), value: info.customerNo },
    {
      label: t('client.base.phone'),
      // Masked: the full number is one tap away in the header (revealed and audited, ADR 0039).
      value: info.phoneMasked ?? none,
      testId: 'info-phone',
    },
    { label: t('client.edit.email'), value: info.email ?? none, testId: 'info-email', wide: true },
    {
      label: t('client.base.idDoc'),
      value: `${t(`client.base.idDocType.${info.idDocType}`, { defaultValue: info.idDocType })} ${info.idDocMasked}`,
    },
    { label: t('client.base.idDocExpiry'), value: info.idDocExpiry ?? '-' },
    { label: t('client.base.birthday'), value: info.birthday ?? '-' },
    { label: t('client.base.risk'), value: t(`client.risk.${info.riskLevel}`, { defaultValue: formatRiskLevel(info.riskLevel) }) },
    { label: t('client.base.riskAssessedOn'), value: info.riskAssessedOn ?? '-' },
    { label: t('client.base.channel'), value: t(`client.channel.${info.channel}`, { defaultValue: info.channel }) },
    { label: t('client.base.openDate'), value: info.openDate },
    {
      label: t('client.base.accounts'),
      value: info.accounts.map((account) => (
        <span className="ba-info__account" key={account.accountNo}>
          {account.accountNo} · {t(`client.base.accountType.${account.type}`, { defaultValue: account.type })}
        </span>
      )),
    },
    { label: t('client.edit.tags'), value: info.tags.length ? info.tags.join('、') : none, testId: 'info-tags' },
    { label: t('client.edit.remark'), value: info.remark ?? none, testId: 'info-remark', wide: true },
  ];
  return (
    <Card
      title={t('client.base.title')}
      more={{ label: t('client.editProfile'), to: withCustomer(CLIENT_PATHS.edit, info.customerId) }}
      className="ba-card--info"
    >
      <dl className="ba-info">
        {rows.map((row) => (
          <div className={row.wide ? 'ba-info__row ba-info__row--wide' : 'ba-info__row'} key={row.label} data-testid={row.testId}>
            <dt className="ba-caption">{row.label}</dt>
            <dd>{row.value}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

/** A card's own query: the card once loaded, else its failure or a one-row placeholder. */
function Loaded<T>({ query, children }: { query: UseQueryResult<T>; children: (data: T) => ReactNode }) {
  if (query.data) return children(query.data);
  return query.isError ? <ClientErrorState error={query.error} onRetry={() => void query.refetch()} /> : <LoadingState rows={1} />;
}

function ClientInformation({ customerId }: { customerId: number }) {
  const profile = useQuery(profileQuery(customerId));
  const asset = useQuery(assetQuery(customerId));
  const info = useQuery(baseInfoQuery(customerId));
  if (profile.isPending) return <LoadingState rows={3} />;
  if (profile.isError) return <ClientErrorState error={profile.error} onRetry={() => void profile.refetch()} />;
  return (
    <>
      <ProfileHeader profile={profile.data} />
      <Loaded query={asset}>{(data) => <AssetCard asset={data} />}</Loaded>
      <DetailLinks customerId={customerId} />
      <ContactLogLink customerId={customerId} />
      <Loaded query={info}>{(data) => <BaseInfoCard info={data} />}</Loaded>
      <TimelineCard customerId={customerId} />
    </>
  );
}

/** The client profile: who they are, what they hold, what happened between them and the firm; the way into every detail. */
export default function ClientInformationPage() {
  const customerId = useCustomerId();
  return <PageFrame>{customerId ? <ClientInformation key={customerId} customerId={customerId} /> : <NoCustomer />}</PageFrame>;
}
