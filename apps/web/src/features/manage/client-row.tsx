import { useRef, useState, type MouseEvent, type PointerEvent } from 'react';
import { Link } from 'react-router';
import { useTranslation } from '../../shared/i18n/use-translation';
import type { CustomerListItem } from '@broker/contract';
import { clientName } from '@broker/domain';
import { useMoney } from '../../shared/format/use-money';
import { Highlight } from './highlight';
import { lazyPart, WhenLoaded } from '../../shared/ui/lazy-part';
import { LongList } from '../../shared/ui/long-list';
import { ListFooter } from '../../shared/ui/list-footer';
import { useRecordOpened } from './manage-queries';

/** A row's usual height at 375 px wide (two lines and tags), for rows the virtual list has not measured yet. */
const CLIENT_ROW_HEIGHT = 86;

export const profilePath = (customerId: number) => `/client/information?customerId=${customerId}`;

/** The reach sheet (with pin/unpin, ADR 0049) loads on the first long press, not with the list (ADR 0037); shown once whole. */
const rowReachSheet = lazyPart(() =>
  Promise.all([import('../reach'), import('./pin-toggle')]).then(
    ([{ ReachSheet }, { PinAction }]) =>
      function RowReachSheet({ client, onClose }: { client: CustomerListItem; onClose: () => void }) {
        return (
          <ReachSheet customerId={client.customerId} name={clientName(client)} visible onClose={onClose}>
            <PinAction customerId={client.customerId} onDone={onClose} />
          </ReachSheet>
        );
      },
  ),
);

/** How long a finger stays on a row before it asks to reach the client rather than open them. */
const LONG_PRESS_MS = 500;
/** A finger that moves this far is scrolling the list, not pressing. */
const PRESS_SLOP_PX = 10;

/** A long press (or right click, desktop WeCom) opens the reach sheet (ADR 0039); the click ending it does not open the profile. */
function useLongPress(onLongPress: () => void) {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const start = useRef<{ x: number; y: number } | null>(null);
  const fired = useRef(false);
  const cancel = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    start.current = null;
  };
  return {
    onPointerDown: (event: PointerEvent) => {
      if (event.pointerType === 'mouse') return;
      fired.current = false;
      start.current = { x: event.clientX, y: event.clientY };
      timer.current = setTimeout(() => {
        fired.current = true;
        timer.current = null;
        onLongPress();
      }, LONG_PRESS_MS);
    },
    onPointerMove: (event: PointerEvent) => {
      if (start.current && Math.hypot(event.clientX - start.current.x, event.clientY - start.current.y) > PRESS_SLOP_PX) cancel();
    },
    onPointerUp: cancel,
    onPointerCancel: cancel,
    onContextMenu: (event: MouseEvent) => {
      event.preventDefault();
      cancel();
      fired.current = true;
      onLongPress();
    },
    /** True once: the click that ends a long press is swallowed. */
    consumeLongPress: () => {
      const was = fired.current;
      fired.current = false;
      return was;
    },
  };
}

/** One client in the list or in search results: who, how to reach them, what they hold, what state they are in. */
export function ClientRow({ client, keyword = '', onOpen }: { client: CustomerListItem; keyword?: string; onOpen?: () => void }) {
  const { t } = useTranslation();
  const money = useMoney();
  // Net assets below zero (a margin loan larger than the holdings) read as such, as on the profile (ADR 0043).
  const negative = client.totalAssetsHkd < 0;
  const [reaching, setReaching] = useState(false);
  const { consumeLongPress, ...pressHandlers } = useLongPress(() => setReaching(true));
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
    <>
      <Link
        className="ba-row ba-client"
        to={profilePath(client.customerId)}
        onClick={(event) => {
          if (consumeLongPress()) event.preventDefault();
          else onOpen?.();
        }}
        {...pressHandlers}
        data-testid="client-row"
        data-customer-id={client.customerId}
      >
        <span className={`ba-avatar ba-client__avatar ba-client__avatar--${client.customerId % 5}`} aria-hidden>
          {clientName(client).slice(0, 1)}
        </span>
        <span className="ba-stack ba-grow ba-client__main">
          <span className="ba-client__name-line">
            <span className="ba-client__name">
              <Highlight text={client.nameCn} keyword={keyword} />
            </span>
            <span className="ba-caption ba-client__name-en ba-ellipsis">
              <Highlight text={client.nameEn} keyword={keyword} />
            </span>
          </span>
          <span className="ba-row ba-client__meta">
            {client.phoneMasked ? <Highlight text={client.phoneMasked} keyword={keyword} /> : '-'}
            {matchedDetail && (
              <span className="ba-client__matched">
                {matchedDetail.label} <Highlight text={matchedDetail.value} keyword={keyword} />
              </span>
            )}
          </span>
          <span className="ba-wrap ba-client__tags">
            <span className={`ba-tag ba-tag--${client.status}`}>{t(`manage.status.${client.status}`)}</span>
            {negative && <span className="ba-tag ba-tag--negative-equity">{t('manage.negativeEquity')}</span>}
            {client.kycBound && <span className="ba-tag ba-tone--blue">{t('manage.kycBound')}</span>}
            {client.tags.slice(0, 2).map((tag) => (
              <span className="ba-tag" key={tag}>
                {tag}
              </span>
            ))}
          </span>
        </span>
        <span className="ba-stack ba-client__assets">
          <span className={negative ? 'ba-client__amount ba-client__amount--negative' : 'ba-client__amount'} data-testid="client-assets">
            {money.format(client.totalAssetsHkd)}
          </span>
          <span className="ba-small-caption ba-client__amount-label">
            {t(negative ? 'manage.netAssetsLabel' : 'manage.assetsLabel', { ccy: money.currency })}
          </span>
        </span>
      </Link>
      {/* Outside the link: a tap in the sheet must not also open the profile. */}
      {reaching && (
        <WhenLoaded part={rowReachSheet}>
          {(RowReachSheet) => <RowReachSheet client={client} onClose={() => setReaching(false)} />}
        </WhenLoaded>
      )}
    </>
  );
}

/** The clients the list or a search found, the next page as the end comes into view; opening one is remembered (ADR 0049). */
export function ClientRows({
  clients,
  keyword,
  hasMore,
  fetchNextPage,
}: {
  clients: CustomerListItem[];
  keyword: string;
  hasMore: boolean;
  fetchNextPage: () => Promise<{ isError: boolean }>;
}) {
  const { t } = useTranslation();
  const record = useRecordOpened();
  return (
    <>
      <LongList
        items={clients}
        itemKey={(client) => client.customerId}
        estimateSize={CLIENT_ROW_HEIGHT}
        renderItem={(client) => <ClientRow client={client} keyword={keyword} onOpen={() => record(client.customerId, keyword)} />}
      />
      <ListFooter
        hasMore={hasMore}
        fetchNextPage={fetchNextPage}
        labels={{ loading: t('manage.loadingMore'), noMore: t('manage.noMore'), failed: t('manage.loadFailed') }}
        testId="list-footer"
      />
    </>
  );
}
