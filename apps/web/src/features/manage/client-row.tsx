import { Link } from 'react-router';
import { useTranslation } from '../../shared/i18n/use-translation';
import type { CustomerListItem } from '@broker/contract';
import { useMoney } from '../../shared/format/use-money';
import { Highlight } from './highlight';

/** A row's usual height at 375 px wide (two lines and tags), for rows the virtual list has not measured yet. */
export const CLIENT_ROW_HEIGHT = 86;

export const profilePath = (customerId: number) => `/client/information?customerId=${customerId}`;

/** One client in the list or in search results: who, how to reach them, what they hold, what state they are in. */
export function ClientRow({ client, keyword = '', onOpen }: { client: CustomerListItem; keyword?: string; onOpen?: () => void }) {
  const { t } = useTranslation();
  const money = useMoney();
  const matchedDetail =
    keyword && client.matchedOn === 'account'
      ? {
          label: t('manage.search.account'),
          value: client.accountNos.find((no) => no.toLowerCase().includes(keyword.trim().toLowerCase())) ?? client.accountNos[0] ?? '',
        }
      : keyword && client.matchedOn === 'idDoc'
        ? { label: t('manage.search.idDoc'), value: client.idDocMasked }
        : null;
  return (
    <Link
      className="ba-client"
      to={profilePath(client.customerId)}
      onClick={onOpen}
      data-testid="client-row"
      data-customer-id={client.customerId}
    >
      <span className={`ba-client__avatar ba-client__avatar--${client.customerId % 5}`} aria-hidden>
        {client.nameCn.slice(0, 1) || client.nameEn.slice(0, 1)}
      </span>
      <span className="ba-client__main">
        <span className="ba-client__name-line">
          <span className="ba-client__name">
            <Highlight text={client.nameCn} keyword={keyword} />
          </span>
          <span className="ba-client__name-en">
            <Highlight text={client.nameEn} keyword={keyword} />
          </span>
        </span>
        <span className="ba-client__meta">
          {client.phoneMasked ? <Highlight text={client.phoneMasked} keyword={keyword} /> : '-'}
          {matchedDetail && (
            <span className="ba-client__matched">
              {matchedDetail.label} <Highlight text={matchedDetail.value} keyword={keyword} />
            </span>
          )}
        </span>
        <span className="ba-client__tags">
          <span className={`ba-tag ba-tag--${client.status}`}>{t(`manage.status.${client.status}`)}</span>
          {client.kycBound && <span className="ba-tag ba-tag--kyc">{t('manage.kycBound')}</span>}
          {client.tags.slice(0, 2).map((tag) => (
            <span className="ba-tag" key={tag}>
              {tag}
            </span>
          ))}
        </span>
      </span>
      <span className="ba-client__assets">
        <span className="ba-client__amount" data-testid="client-assets">
          {money.format(client.totalAssetsHkd)}
        </span>
        <span className="ba-client__amount-label">{t('manage.assetsLabel', { ccy: money.currency })}</span>
      </span>
    </Link>
  );
}
