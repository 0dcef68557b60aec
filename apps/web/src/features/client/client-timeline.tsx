import { useState } from 'react';
import { Link } from 'react-router';
import { useInfiniteQuery } from '@tanstack/react-query';
import Popup from 'antd-mobile/es/components/popup';
import { useTranslation } from '../../shared/i18n/use-translation';
import { motRuleName } from '../../shared/i18n/mot-rule-names';
import type { KeysUnder, TFunction, TranslationKey } from '../../shared/i18n/translator';
import { TIMELINE_DEFAULT_KINDS, TIMELINE_KINDS, type TimelineItem, type TimelineKind } from '../../shared/api/contract';
import { useRestorableState } from '../../shared/drafts/page-state';
import { Card } from '../../shared/ui/card';
import { ListFooter } from '../../shared/ui/list-footer';
import { LoadingState } from '../../shared/ui/states';
import { SheetClose } from '../../shared/ui/sheet';
import { formatNumber } from '../../shared/format/number-format';
import { useMoney } from '../../shared/format/use-money';
import { timelineQuery } from './client-queries';
import { CLIENT_PATHS, securityName, withCustomer } from './client-format';
import { formatDateTime } from '../../shared/format/date-format';
import { formatPrice } from '../../shared/format/price-format';
import { ClientErrorState } from './client-error-state';
import { outcomeText } from '../../shared/format/outcome';
import { contactRecordPath } from '../contact';

const MOT_EVENT_PATH = '/mot/eventDetail';

/** The filter as kept for a reload (ADR 0013): untrusted, so only a non-empty list of known kinds, each once. */
export const isKindList = (value: unknown): value is TimelineKind[] =>
  Array.isArray(value) &&
  value.length > 0 &&
  value.length <= TIMELINE_KINDS.length &&
  new Set(value).size === value.length &&
  value.every((kind) => (TIMELINE_KINDS as readonly unknown[]).includes(kind));

/** The kinds in the contract's order, `kind` switched; never none (the last one stays on). */
export function toggleKind(kinds: readonly TimelineKind[], kind: TimelineKind): TimelineKind[] {
  const next = kinds.includes(kind) ? kinds.filter((chosen) => chosen !== kind) : [...kinds, kind];
  return next.length === 0 ? [...kinds] : TIMELINE_KINDS.filter((known) => next.includes(known));
}

function KindFilter({ kinds, onChange }: { kinds: readonly TimelineKind[]; onChange: (kinds: TimelineKind[]) => void }) {
  const { t } = useTranslation();
  return (
    <div className="ba-chip-row ba-timeline__filter" role="group" aria-label={t('client.timeline.filter')} data-testid="timeline-filter">
      {TIMELINE_KINDS.map((kind) => {
        const on = kinds.includes(kind);
        return (
          <button
            key={kind}
            type="button"
            aria-pressed={on}
            className={on ? 'ba-frow__chip ba-hit ba-frow__chip--on' : 'ba-frow__chip ba-hit'}
            data-kind={kind}
            onClick={() => onChange(toggleKind(kinds, kind))}
          >
            {t(`client.timeline.kind.${kind}`)}
          </button>
        );
      })}
    </div>
  );
}

/** A value of a profile edit as the sheet shows it: lists joined, nothing as "(empty)". */
function changeValue(value: unknown, t: TFunction) {
  if (value === null || value === undefined || value === '') return t('client.timeline.emptyValue');
  if (Array.isArray(value)) return value.length ? value.join(t('client.timeline.listJoin')) : t('client.timeline.emptyValue');
  return typeof value === 'string' || typeof value === 'number' ? String(value) : JSON.stringify(value);
}

/** A profile field by name; one newer than this app reads as its code. */
const fieldName = (field: string, t: TFunction) => t(`client.timeline.field.${field}`, { defaultValue: field });

/** The item's one line and its second line, by kind. */
function ItemText({ item }: { item: TimelineItem }) {
  const { t } = useTranslation();
  const money = useMoney();
  if (item.contact) {
    const { contact } = item;
    return (
      <>
        <p className="ba-timeline__what">
          {t('client.timeline.contact.what', {
            channel: t(`contact.channel.${contact.channel}`),
            purpose: t(`contact.purpose.${contact.purpose}`),
          })}
          {contact.version > 1 && <span className="ba-timeline__badge">{t('client.timeline.contact.corrected')}</span>}
        </p>
        <p className="ba-timeline__detail ba-timeline__note">{contact.note}</p>
      </>
    );
  }
  if (item.mot)
    return (
      <>
        <p className="ba-timeline__what">{t(`client.timeline.mot.${item.mot.stage}`, { rule: motRuleName(item.mot.rule, t) })}</p>
        <p className="ba-timeline__detail">{t('client.timeline.mot.due', { date: item.mot.dueDate })}</p>
      </>
    );
  if (item.kyc)
    return (
      <>
        <p className="ba-timeline__what">{t(`client.timeline.kyc.${item.kyc.action}`)}</p>
        {item.kyc.via && <p className="ba-timeline__detail">{t(`client.timeline.via.${item.kyc.via}`, { defaultValue: item.kyc.via })}</p>}
      </>
    );
  if (item.profileEdit)
    return (
      <p className="ba-timeline__what">
        {t('client.timeline.edit.what', {
          fields: item.profileEdit.changes.map((change) => fieldName(change.field, t)).join(t('client.timeline.listJoin')),
        })}
      </p>
    );
  if (item.money) {
    const { direction, currency, amount, amountHkd } = item.money;
    return (
      <>
        <p className="ba-timeline__what">{t(`client.timeline.money.${direction}`)}</p>
        <p className="ba-timeline__detail">
          {currency} {formatNumber(amount, 2)}
          <span className={`ba-timeline__amount ba-flow--${direction}`}>
            {direction === 'deposit' ? '+' : '-'}
            {money.format(amountHkd)} {money.currency}
          </span>
        </p>
      </>
    );
  }
  if (item.transfer) {
    const { transfer } = item;
    return (
      <>
        <p className="ba-timeline__what">
          {t(`client.timeline.transfer.${transfer.direction}`)}{' '}
          {securityName(transfer.securityNameCn, transfer.securityNameEn, transfer.securityNameHk)} {transfer.symbol}
        </p>
        <p className="ba-timeline__detail">{t('client.dynamic.shares', { qty: formatNumber(transfer.quantity) })}</p>
      </>
    );
  }
  if (item.trade) {
    const { trade } = item;
    return (
      <>
        <p className="ba-timeline__what">
          <span className={`ba-side ba-side--${trade.side}`}>{t(`client.dynamic.${trade.side}`)}</span>{' '}
          {securityName(trade.securityNameCn, trade.securityNameEn, trade.securityNameHk)} {trade.symbol}
        </p>
        <p className="ba-timeline__detail">
          {t('client.dynamic.shares', { qty: formatNumber(trade.quantity) })} @ {formatPrice(trade.price, trade.symbol)} {trade.currency}
          <span className="ba-timeline__amount">
            {money.format(trade.amountHkd)} {money.currency}
          </span>
        </p>
      </>
    );
  }
  return null;
}

/** Where an item's full record lives, if it has a page of its own. */
function detailLink(item: TimelineItem, customerId: number): { to: string; label: TranslationKey } | null {
  if (item.contact) return { to: contactRecordPath(item.contact.recordId), label: 'client.timeline.open.contact' };
  if (item.mot) return { to: `${MOT_EVENT_PATH}?eventId=${item.mot.eventId}`, label: 'client.timeline.open.mot' };
  if (item.money) return { to: withCustomer(CLIENT_PATHS.money, customerId), label: 'client.timeline.open.money' };
  if (item.transfer) return { to: withCustomer(CLIENT_PATHS.transfers, customerId), label: 'client.timeline.open.transfer' };
  if (item.trade) return { to: withCustomer(CLIENT_PATHS.trades, customerId), label: 'client.timeline.open.trade' };
  return null;
}

/** Everything the item says, in a bottom sheet, and the way to its own page. */
function ItemSheet({ item, customerId, onClose }: { item: TimelineItem | null; customerId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const money = useMoney();
  const rows: Array<{ label: string; value: string }> = [];
  const row = (key: KeysUnder<'client.timeline.sheet'>, value: string) => rows.push({ label: t(`client.timeline.sheet.${key}`), value });
  if (item) {
    row('at', formatDateTime(item.at));
    row('by', item.staffName ?? t('client.timeline.system'));
    if (item.contact) {
      const { contact } = item;
      row('channel', t(`contact.channel.${contact.channel}`));
      row('purpose', t(`contact.purpose.${contact.purpose}`));
      row('note', contact.note);
      if (contact.outcome) row('outcome', outcomeText(contact.outcome));
      if (contact.nextStep) row('nextStep', contact.nextStepDate ? `${contact.nextStepDate} ${contact.nextStep}` : contact.nextStep);
      row('version', String(contact.version));
    }
    if (item.mot) {
      row('rule', motRuleName(item.mot.rule, t));
      row('stage', t(`client.timeline.stage.${item.mot.stage}`));
      row('due', item.mot.dueDate);
    }
    if (item.kyc) {
      row('action', t(`client.timeline.kyc.${item.kyc.action}`));
      if (item.kyc.via) row('via', t(`client.timeline.via.${item.kyc.via}`, { defaultValue: item.kyc.via }));
    }
    if (item.money) {
      const { money: movement } = item;
      row('amount', `${movement.currency} ${formatNumber(movement.amount, 2)}`);
      rows.push({ label: t('client.timeline.sheet.inCurrency', { ccy: money.currency }), value: money.format(movement.amountHkd) });
      row('method', t(`client.timeline.method.${movement.method}`, { defaultValue: movement.method }));
    }
    if (item.transfer) {
      const { transfer } = item;
      row('security', `${securityName(transfer.securityNameCn, transfer.securityNameEn, transfer.securityNameHk)} ${transfer.symbol}`);
      row('quantity', formatNumber(transfer.quantity));
      row('counterparty', transfer.counterparty);
    }
    if (item.trade) {
      const { trade } = item;
      row('security', `${securityName(trade.securityNameCn, trade.securityNameEn, trade.securityNameHk)} ${trade.symbol}`);
      row('quantity', formatNumber(trade.quantity));
      row('price', `${formatPrice(trade.price, trade.symbol)} ${trade.currency}`);
      row('amount', `${trade.currency} ${formatNumber(trade.amount, 2)}`);
    }
  }
  const link = item ? detailLink(item, customerId) : null;
  return (
    <Popup visible={item !== null} onMaskClick={onClose} onClose={onClose} bodyClassName="ba-sheet ba-timeline-sheet" destroyOnClose>
      {item && (
        <div data-testid="timeline-sheet" data-kind={item.kind}>
          <div className="ba-timeline-sheet__head">
            <h3>{t(`client.timeline.kind.${item.kind}`)}</h3>
            <SheetClose label={t('client.timeline.sheet.close')} onClose={onClose} />
          </div>
          <div className="ba-timeline-sheet__body">
            <div className="ba-timeline-sheet__summary">
              <ItemText item={item} />
            </div>
            <dl className="ba-info">
              {rows.map((row) => (
                <div className="ba-info__row ba-info__row--wide" key={row.label}>
                  <dt>{row.label}</dt>
                  <dd>{row.value}</dd>
                </div>
              ))}
            </dl>
            {item.profileEdit && (
              <table className="ba-timeline-sheet__changes" data-testid="timeline-changes">
                <thead>
                  <tr>
                    <th>{t('client.timeline.sheet.field')}</th>
                    <th>{t('client.timeline.sheet.before')}</th>
                    <th>{t('client.timeline.sheet.after')}</th>
                  </tr>
                </thead>
                <tbody>
                  {item.profileEdit.changes.map((change) => (
                    <tr key={change.field}>
                      <td>{fieldName(change.field, t)}</td>
                      <td>{changeValue(change.before, t)}</td>
                      <td>{changeValue(change.after, t)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            {link && (
              <Link className="ba-timeline-sheet__open" to={link.to} onClick={onClose} data-testid="timeline-open">
                {t(link.label)}
              </Link>
            )}
          </div>
        </div>
      )}
    </Popup>
  );
}

/** The client's timeline on the profile (ADR 0040), newest first, loaded as the end comes into view; an item opens its sheet. */
export function TimelineCard({ customerId }: { customerId: number }) {
  const { t } = useTranslation();
  const [kinds, setKinds] = useRestorableState<TimelineKind[]>('timelineKinds', () => [...TIMELINE_DEFAULT_KINDS], isKindList);
  const [opened, setOpened] = useState<TimelineItem | null>(null);
  const timeline = useInfiniteQuery(timelineQuery(customerId, kinds));
  const items = timeline.data?.pages.flatMap((page) => page.list) ?? [];
  return (
    <Card title={t('client.timeline.title')} titleDesc={t('client.timeline.desc')} className="ba-card--timeline">
      <div data-testid="timeline">
        <KindFilter kinds={kinds} onChange={setKinds} />
        {timeline.isPending ? (
          <LoadingState rows={1} />
        ) : timeline.isError && items.length === 0 ? (
          <ClientErrorState error={timeline.error} onRetry={() => void timeline.refetch()} />
        ) : items.length === 0 ? (
          <p className="ba-muted ba-timeline__empty" data-testid="timeline-empty">
            {t('client.timeline.empty')}
          </p>
        ) : (
          <>
            <ol className="ba-plain-list ba-timeline" data-testid="timeline-list">
              {items.map((item) => (
                <li key={item.key} className={`ba-timeline__item ba-timeline__item--${item.kind}`} data-kind={item.kind}>
                  <button type="button" className="ba-bare ba-timeline__open" onClick={() => setOpened(item)} data-testid="timeline-item">
                    <time className="ba-caption ba-timeline__time">
                      {formatDateTime(item.at)}
                      {item.staffName && <span className="ba-timeline__by">{item.staffName}</span>}
                    </time>
                    <ItemText item={item} />
                  </button>
                </li>
              ))}
            </ol>
            <ListFooter
              hasMore={timeline.hasNextPage}
              fetchNextPage={timeline.fetchNextPage}
              labels={{ loading: t('client.list.loading'), noMore: t('client.timeline.noMore'), failed: t('client.list.loadFailed') }}
              testId="timeline-footer"
            />
          </>
        )}
      </div>
      <ItemSheet item={opened} customerId={customerId} onClose={() => setOpened(null)} />
    </Card>
  );
}
