import { useId, useRef } from 'react';
import type { CustomerStat } from '@broker/contract';
import { useTranslation } from '../../shared/i18n/use-translation';
import { formatNumber } from '../../shared/format/number-format';
import { scrollFadeProps, useScrollEdges } from '../../shared/ui/use-scroll-edges';

/**
 * The stat card's clients by channel: one line that scrolls sideways (its height never depends on how many
 * channels a book has, so the figures arriving do not push the list down). It shows that it scrolls: a fade at
 * each end that hides more, gone once scrolled to that end. A screen reader reads it as a named list,
 * whole; when it overflows, Tab reaches it and the arrow keys scroll it.
 */
export function ChannelStrip({ byChannel }: { byChannel: CustomerStat['byChannel'] | undefined }) {
  const { t } = useTranslation();
  const labelId = useId();
  const strip = useRef<HTMLDivElement>(null);
  const edges = useScrollEdges(strip, byChannel);
  const scrolls = edges.before || edges.after;
  return (
    // Always there, so the line does not push the list down when the figures arrive (layout shift).
    <div
      ref={strip}
      className="ba-hscroll ba-stat__channels ba-scroll-fade"
      data-testid="stat-channels"
      {...scrollFadeProps(edges)}
      role="region"
      aria-labelledby={labelId}
      tabIndex={scrolls ? 0 : undefined}
      onScroll={edges.onScroll}
    >
      <span id={labelId}>{t('manage.byChannel')}</span>
      {byChannel && byChannel.length > 0 ? (
        <ul className="ba-plain-list ba-stat__channel-list" aria-labelledby={labelId}>
          {byChannel.map((row) => (
            <li key={row.channel}>
              {t(`manage.channel.${row.channel}`, { defaultValue: row.channel })} <b>{formatNumber(row.clients)}</b>
            </li>
          ))}
        </ul>
      ) : (
        <b>{formatNumber(null)}</b>
      )}
    </div>
  );
}
