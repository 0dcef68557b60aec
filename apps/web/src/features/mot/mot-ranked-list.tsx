import { Link } from 'react-router';
import { useInfiniteQuery } from '@tanstack/react-query';
import RightOutline from 'antd-mobile-icons/es/RightOutline';
import type { MotDayProgress, MotRankedRow, MotRule } from '@broker/contract';
import { useTranslation } from '../../shared/i18n/use-translation';
import { LongList } from '../../shared/ui/long-list';
import { EmptyState, LoadingState } from '../../shared/ui/states';
import { LoadFailedState } from '../../shared/ui/load-failed-state';
import { formatNumber } from '../../shared/format/number-format';
import './locales';
import { motEventPath } from './mot-paths';
import './mot-rank.css';
import { rankedTodayQuery } from './mot-api';
import { eventSubject } from './mot-format';
import { LoadMore, RuleIcon, TodoMark } from './mot-parts';
import { useMoney } from '../../shared/format/use-money';

/** "Today's completion": handled today of handled + still pending today, as a figure and a bar. */
export function DayProgress({ progress }: { progress: MotDayProgress | undefined }) {
  const { t } = useTranslation();
  const handled = progress?.handled ?? 0;
  const total = progress?.total ?? 0;
  const share = total > 0 ? Math.round((handled / total) * 100) : 0;
  return (
    <div
      className="mot-progress"
      data-testid="mot-day-progress"
      data-handled={handled}
      data-total={total}
      role="group"
      aria-label={t('mot.rank.progressLabel', { handled, total })}
    >
      <span className="mot-progress__label">{t('mot.rank.progress')}</span>
      <span className="mot-progress__value">{progress ? t('mot.rank.progressValue', { handled, total }) : '- / -'}</span>
      <span className="mot-progress__bar" aria-hidden="true">
        <span className="mot-progress__fill" style={{ width: `${share}%` }} />
      </span>
    </div>
  );
}

/** The small marks under a ranked row: overdue days, raised today, snoozed. */
export function RankBadges({ row }: { row: Pick<MotRankedRow, 'event' | 'rank'> }) {
  const { t } = useTranslation();
  return (
    <span className="ba-wrap mot-rank-badges">
      {row.rank.overdueDays > 0 && (
        <span className="ba-tag ba-tone--red">{t('mot.rank.overdueDays', { count: row.rank.overdueDays })}</span>
      )}
      {row.rank.raisedToday && <span className="ba-tag ba-tone--blue">{t('mot.rank.raisedToday')}</span>}
      {row.event.snoozed && (
        <span className="ba-tag ba-tone--amber" data-testid="mot-snoozed-mark">
          {t('mot.rank.snoozed')}
        </span>
      )}
    </span>
  );
}

function RankedRow({ row }: { row: MotRankedRow }) {
  const { t, i18n } = useTranslation();
  const money = useMoney();
  const { event } = row;
  return (
    <Link
      to={motEventPath(event.eventId)}
      className={event.status === 'new' ? 'ba-surface mot-row mot-ranked mot-ranked--unseen' : 'ba-surface mot-row mot-ranked'}
      data-testid="mot-ranked-row"
      data-event-id={event.eventId}
      data-customer-id={row.customerId}
      data-position={row.position}
    >
      <span className="mot-ranked__position" aria-hidden="true">
        {row.position}
      </span>
      <RuleIcon rule={event.rule} />
      <span className="ba-stack ba-grow mot-row__who">
        <span className="mot-ranked__title">
          <span className="mot-ranked__rule">{t(`mot.rule.${event.rule}`)}</span>
          <span className="mot-row__subject">{eventSubject(event.rule, event.facts, i18n.language, money)}</span>
        </span>
        <span className="mot-row__meta ba-ellipsis">
          {row.nameCn} {row.nameEn} · {row.customerNo}
        </span>
        <RankBadges row={row} />
      </span>
      <span className="ba-stack mot-row__side">
        <span className="mot-ranked__score" title={t('mot.rank.score')} data-testid="mot-ranked-score">
          {formatNumber(row.rank.score, 1)}
        </span>
        <TodoMark status={event.status} />
      </span>
      <RightOutline className="mot-line__arrow" />
    </Link>
  );
}

const RANKED_ROW_ESTIMATE = 96;

/** Today (overdue, due today, raised today), most important first: the manager works down from the top. */
export function RankedList({ rule }: { rule: MotRule | undefined }) {
  const { t } = useTranslation();
  const list = useInfiniteQuery(rankedTodayQuery(rule ? { rule } : {}));
  if (list.isPending) return <LoadingState rows={3} />;
  if (list.isError) return <LoadFailedState error={list.error} subject="content" onRetry={() => void list.refetch()} />;
  const rows = list.data.pages.flatMap((page) => page.list);
  const total = list.data.pages[0]?.total ?? 0;
  return (
    <div className="mot-list" data-testid="mot-ranked-list">
      <div className="mot-list__head mot-ranked-head">
        <span className="mot-ranked-head__title">{t('mot.rank.title')}</span>
        <span className="mot-list__total">{t('mot.home.eventsTotal', { count: total })}</span>
      </div>
      <p className="ba-caption mot-ranked-head__subtitle">{t('mot.rank.subtitle')}</p>
      {total === 0 ? (
        <EmptyState title={rule ? t('mot.home.emptyRule') : t('mot.rank.empty')} description={t('mot.rank.emptyDescription')} />
      ) : (
        <LongList
          items={rows}
          itemKey={(row) => row.event.eventId}
          estimateSize={RANKED_ROW_ESTIMATE}
          renderItem={(row) => <RankedRow row={row} />}
        />
      )}
      <LoadMore list={list} saysEnd={rows.length > 0} />
    </div>
  );
}
