import { useId, useRef } from 'react';
import type { CustomerStat } from '@broker/contract';
import { useTranslation } from '../../shared/i18n/use-translation';
import { formatNumber } from '../../shared/format/number-format';
import { scrollFadeProps, useScrollEdges } from '../../shared/ui/use-scroll-edges';

/**
 * The stat card's clients by channel on one line that scrolls sideways (a fixed height: figures arriving never push the list
 * down), with a fade at each end that hides more. A screen reader reads a named list; when it overflows, Tab and arrows scroll it.
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
