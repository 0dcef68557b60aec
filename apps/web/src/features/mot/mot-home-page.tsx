import { useLayoutEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from '../../shared/i18n/use-translation';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import RightOutline from 'antd-mobile-icons/es/RightOutline';
import SetOutline from 'antd-mobile-icons/es/SetOutline';
import FileOutline from 'antd-mobile-icons/es/FileOutline';
import type { MotRule, MotTodoRow } from '@broker/contract';
import { PageFrame } from '../../shared/ui/page-frame';
import { LongList } from '../../shared/ui/long-list';
import { EmptyState, LoadingState } from '../../shared/ui/states';
import { LoadFailedState } from '../../shared/ui/load-failed-state';
import { useAppSettings } from '../../shared/session/app-settings-store';
import { useMoney } from '../../shared/format/use-money';
import { isDay, oneOf, useRestorableState } from '../../shared/drafts/page-state';
import { MOT_RULES } from '../../shared/api/contract';
import './locales';
import { motEventPath, motClientPath } from './mot-paths';
import { todaySummaryQuery, todoClientsQuery, todoCountQuery, todoDatesQuery, useSetFold } from './mot-api';
import { addDays, clientName, hongKongDay, weekdayOf } from '@broker/domain';
import { eventSubject, subjectIsText } from './mot-format';
import { formatRelativeDay } from '../../shared/format/date-format';

const STRIP_DAYS_BEFORE = 3;
const STRIP_DAYS_AFTER = 7;
import { LoadMore, RuleIcon, RuleTag, TodoMark } from './mot-parts';
import { MotSettingsSheet, thresholdWasInterrupted } from './mot-settings-sheet';
import { DayProgress, RankedList } from './mot-ranked-list';

function DateStrip({ today, selected, onSelect }: { today: string; selected: string; onSelect: (day: string) => void }) {
  const { t } = useTranslation();
  const dates = useQuery(todoDatesQuery());
  const strip = useRef<HTMLDivElement>(null);
  const byDay = new Map((dates.data ?? []).map((day) => [day.date, day]));
  // A steady week around today, plus any other day that has something pending.
  for (let offset = -STRIP_DAYS_BEFORE; offset <= STRIP_DAYS_AFTER; offset += 1) {
    const day = addDays(today, offset);
    if (!byDay.has(day)) byDay.set(day, { date: day, count: 0, unseen: 0 });
  }
  if (!byDay.has(selected)) byDay.set(selected, { date: selected, count: 0, unseen: 0 });
  const days = [...byDay.values()].sort((a, b) => a.date.localeCompare(b.date));
  const weekdays = t('mot.weekday', { returnObjects: true }) as string[];

  useLayoutEffect(() => {
    const chip = strip.current?.querySelector<HTMLElement>('[aria-pressed="true"]');
    if (chip && strip.current) strip.current.scrollLeft = chip.offsetLeft - strip.current.clientWidth / 2 + chip.clientWidth / 2;
  }, [days.length, selected]);

  return (
    <div className="ba-hscroll ba-row mot-dates" ref={strip} role="group" aria-label={t('mot.home.datesLabel')} data-testid="mot-dates">
      {days.map((day) => {
        const past = day.date < today && day.count > 0;
        const classes = ['ba-stack', 'mot-date'];
        if (day.date === selected) classes.push('mot-date--on');
        if (past) classes.push('mot-date--overdue');
        if (!day.count) classes.push('mot-date--empty');
        return (
          <button
            key={day.date}
            type="button"
            className={classes.join(' ')}
            aria-pressed={day.date === selected}
            data-date={day.date}
            onClick={() => onSelect(day.date)}
          >
            <span className="ba-small-caption mot-date__week">
              {day.date === today ? t('mot.home.today') : weekdays[weekdayOf(day.date)]}
            </span>
            <span className="mot-date__day">{day.date.slice(5)}</span>
            <span className="mot-date__count" data-testid="mot-date-count">
              {day.count}
            </span>
            {day.unseen > 0 && <span className="mot-unseen-dot mot-date__dot" />}
          </button>
        );
      })}
    </div>
  );
}

function EventLine({ row, event }: { row: MotTodoRow; event: MotTodoRow['events'][number] }) {
  const { i18n } = useTranslation();
  const money = useMoney();
  return (
    <Link
      to={motEventPath(event.eventId)}
      className="ba-row mot-line"
      data-testid="mot-event-link"
      data-event-id={event.eventId}
      data-customer-id={row.customerId}
    >
      <RuleTag rule={event.rule} />
      <span className={subjectIsText(event.rule) ? 'mot-line__subject mot-subject--text ba-ellipsis' : 'mot-line__subject'}>
        {eventSubject(event.rule, event.facts, i18n.language, money)}
      </span>
      <TodoMark status={event.status} />
      <RightOutline className="mot-line__arrow" />
    </Link>
  );
}

/** Folded: one card per client, each of its events a line. */
function ClientRow({ row }: { row: MotTodoRow }) {
  const { t } = useTranslation();
  return (
    <section className="ba-surface mot-row mot-row--client" data-testid="mot-row" data-customer-id={row.customerId}>
      <Link className="ba-row mot-row__client" to={motClientPath(row.customerId)}>
        <span className="ba-avatar mot-avatar">
          {clientName(row).slice(0, 1)}
          {row.unseen && <span className="mot-unseen-dot mot-avatar__dot" />}
        </span>
        <span className="ba-stack ba-grow mot-row__who">
          <span className="ba-row mot-row__name">
            {row.nameCn}
            <small className="ba-ellipsis">{row.nameEn}</small>
          </span>
          <span className="mot-row__meta ba-ellipsis">
            {row.customerNo}
            {row.phone && ` · ${row.phone}`}
          </span>
        </span>
        <span className="ba-caption mot-row__count">{t('mot.home.eventsCount', { count: row.events.length })}</span>
        <RightOutline className="mot-line__arrow" />
      </Link>
      <div className="mot-row__lines">
        {row.events.map((event) => (
          <EventLine key={event.eventId} row={row} event={event} />
        ))}
      </div>
    </section>
  );
}

/** Unfolded: one row per event. */
function EventRow({ row }: { row: MotTodoRow }) {
  const { t, i18n } = useTranslation();
  const money = useMoney();
  const event = row.events[0];
  if (!event) return null;
  return (
    <Link
      to={motEventPath(event.eventId)}
      className={row.unseen ? 'ba-surface mot-row mot-row--event mot-row--unseen' : 'ba-surface mot-row mot-row--event'}
      data-testid="mot-row"
      data-event-id={event.eventId}
      data-customer-id={row.customerId}
    >
      <RuleIcon rule={event.rule} />
      <span className="ba-stack ba-grow mot-row__who">
        <span className="ba-row mot-row__title">
          <span className="mot-row__rule">{t(`mot.rule.${event.rule}`)}</span>
          <span className={subjectIsText(event.rule) ? 'mot-row__subject mot-subject--text ba-ellipsis' : 'mot-row__subject'}>
            {eventSubject(event.rule, event.facts, i18n.language, money)}
          </span>
        </span>
        <span className="mot-row__meta ba-ellipsis">
          {row.nameCn} {row.nameEn} · {row.customerNo}
        </span>
      </span>
      <span className="ba-stack mot-row__side">
        <TodoMark status={event.status} />
      </span>
      <RightOutline className="mot-line__arrow" />
    </Link>
  );
}

// Starting heights for the windowed list (px at 375 wide); the list measures each row once it is on screen.
const CLIENT_ROW_ESTIMATE = 132;
const EVENT_ROW_ESTIMATE = 84;

function TodoList({ date, rule }: { date: string; rule: MotRule | undefined }) {
  const { t } = useTranslation();
  const list = useInfiniteQuery(todoClientsQuery({ date, rule }));
  const fold = useAppSettings((settings) => settings.motFold);
  const setFold = useSetFold();

  if (list.isPending) return <LoadingState rows={3} />;
  if (list.isError) return <LoadFailedState error={list.error} subject="content" onRetry={() => void list.refetch()} />;
  const rows = list.data.pages.flatMap((page) => page.list);
  const folded = list.data.pages[0]?.fold ?? fold;
  const total = list.data.pages[0]?.total ?? 0;

  return (
    <div className="mot-list" data-testid="mot-list" data-fold={folded ? 'folded' : 'unfolded'}>
      <div className="mot-list__head">
        <span className="mot-list__total">
          {folded ? t('mot.home.clientsTotal', { count: total }) : t('mot.home.eventsTotal', { count: total })}
        </span>
        <div className="ba-segmented mot-toggle" role="group" aria-label={t('mot.settings.fold')}>
          {[true, false].map((value) => (
            <button
              key={String(value)}
              type="button"
              aria-pressed={folded === value}
              className={folded === value ? 'ba-segmented__item ba-hit ba-segmented__item--on' : 'ba-segmented__item ba-hit'}
              disabled={setFold.isPending}
              data-testid={value ? 'mot-fold-on' : 'mot-fold-off'}
              onClick={() => folded !== value && setFold.mutate(value)}
            >
              {value ? t('mot.home.listFolded') : t('mot.home.listUnfolded')}
            </button>
          ))}
        </div>
      </div>
      {total === 0 ? (
        <EmptyState title={rule ? t('mot.home.emptyRule') : t('mot.home.empty')} description={t('mot.home.emptyDescription')} />
      ) : (
        <LongList
          items={rows}
          itemKey={(row) => (folded ? row.customerId : (row.events[0]?.eventId ?? row.customerId))}
          estimateSize={folded ? CLIENT_ROW_ESTIMATE : EVENT_ROW_ESTIMATE}
          renderItem={(row) => (folded ? <ClientRow row={row} /> : <EventRow row={row} />)}
        />
      )}
      <LoadMore list={list} saysEnd={rows.length > 0} />
    </div>
  );
}

/** Today's two views: the ranked day (default) or the day's list by client name, as on other days. */
const HOME_VIEWS = ['ranked', 'day'] as const;
type HomeView = (typeof HOME_VIEWS)[number];

function ViewToggle({ view, onChange }: { view: HomeView; onChange: (view: HomeView) => void }) {
  const { t } = useTranslation();
  return (
    <div className="mot-view-bar">
      <div className="ba-segmented mot-toggle" role="group" aria-label={t('mot.rank.viewLabel')} data-testid="mot-view">
        {HOME_VIEWS.map((value) => (
          <button
            key={value}
            type="button"
            aria-pressed={view === value}
            className={view === value ? 'ba-segmented__item ba-hit ba-segmented__item--on' : 'ba-segmented__item ba-hit'}
            data-testid={`mot-view-${value}`}
            onClick={() => onChange(value)}
          >
            {value === 'ranked' ? t('mot.rank.viewRanked') : t('mot.rank.viewDay')}
          </button>
        ))}
      </div>
    </div>
  );
}

const isRuleFilter = (value: unknown): value is MotRule | undefined => value === undefined || MOT_RULES.includes(value as MotRule);

/** MOT home: pick a day on the strip, narrow by event type, work through the list. */
export default function MotHomePage() {
  const { t } = useTranslation();
  const [today] = useState(() => hongKongDay());
  // The day and filters come back after a sign-in round trip or a reload (ADR 0013).
  const [date, setDate] = useRestorableState('date', today, isDay);
  const [rule, setRule] = useRestorableState<MotRule | undefined>('rule', undefined, isRuleFilter);
  // Back from a sign-in that interrupted saving the threshold: the settings open again with what was typed.
  const [settingsOpen, setSettingsOpen] = useState(thresholdWasInterrupted);
  const counts = useQuery(todoCountQuery(date));
  // Today is the ranked day (overdue + due today + raised today, ADR 0041): its counts and the day's figure come with it.
  const summary = useQuery(todaySummaryQuery());
  // `?view=day` opens today's list by client name (a link or a test that wants it).
  const [params] = useSearchParams();
  const [view, setView] = useRestorableState<HomeView>('view', () => (params.get('view') === 'day' ? 'day' : 'ranked'), oneOf(HOME_VIEWS));
  const rankedDay = date === today && view === 'ranked';
  const todayTotal = summary.data?.byRule.reduce((sum, entry) => sum + entry.count, 0);
  const dayTotal = rankedDay ? todayTotal : counts.data?.total;
  const allPending = useQuery(todoDatesQuery());
  const pendingTotal = (allPending.data ?? []).reduce((sum, day) => sum + day.count, 0);
  const unseenTotal = (allPending.data ?? []).reduce((sum, day) => sum + day.unseen, 0);
  // The chosen type stays on the bar even once its count drops to 0 (all handled), so the filter stays visible.
  const dayCounts = rankedDay ? summary.data?.byRule.map((entry) => ({ ...entry, unseen: 0 })) : counts.data?.byRule;
  const ruleCounts = (dayCounts ?? []).filter((entry) => entry.count > 0 || entry.rule === rule);
  if (rule && dayCounts && !ruleCounts.some((entry) => entry.rule === rule)) ruleCounts.push({ rule, count: 0, unseen: 0 });

  return (
    <PageFrame className="mot-page">
      <header className="ba-row mot-hero">
        <div className="ba-grow">
          <DayProgress progress={summary.data?.progress} />
          <div className="mot-hero__label">{t('mot.home.dayPending', { day: formatRelativeDay(date, today) })}</div>
          <div className="mot-hero__title" data-testid="mot-day-total">
            {dayTotal ?? '-'}
          </div>
          <div className="mot-hero__sub">
            {t('mot.home.allPending', { count: pendingTotal })}
            {unseenTotal > 0 && ` · ${t('mot.home.unseenTotal', { count: unseenTotal })}`}
          </div>
        </div>
        <Link to="/mot/historySearch" className="ba-stack mot-hero__action" data-testid="mot-history-link">
          <FileOutline />
          <span>{t('mot.client.history')}</span>
        </Link>
        <button type="button" className="ba-stack mot-hero__action" onClick={() => setSettingsOpen(true)} data-testid="mot-settings-open">
          <SetOutline />
          <span>{t('mot.home.settings')}</span>
        </button>
      </header>
      <DateStrip
        today={today}
        selected={date}
        onSelect={(day) => {
          setDate(day);
          setRule(undefined);
        }}
      />
      <div className="ba-hscroll ba-row mot-types" role="group" aria-label={t('mot.home.byType')} data-testid="mot-types">
        {[{ rule: undefined, count: dayTotal ?? 0, unseen: 0 }, ...ruleCounts].map((entry) => (
          <button
            key={entry.rule ?? 'all'}
            type="button"
            className={rule === entry.rule ? 'ba-choice-chip mot-type ba-hit ba-choice-chip--on' : 'ba-choice-chip mot-type ba-hit'}
            aria-pressed={rule === entry.rule}
            data-rule={entry.rule}
            onClick={() => setRule(rule === entry.rule ? undefined : entry.rule)}
          >
            {entry.rule ? t(`mot.rule.${entry.rule}`) : t('mot.home.all')}
            <span className="mot-type__count">{entry.count}</span>
            {entry.unseen > 0 && <span className="mot-unseen-dot mot-type__dot" />}
          </button>
        ))}
      </div>
      {date === today && <ViewToggle view={view} onChange={setView} />}
      {rankedDay ? <RankedList rule={rule} /> : <TodoList date={date} rule={rule} />}
      <MotSettingsSheet visible={settingsOpen} onClose={() => setSettingsOpen(false)} />
    </PageFrame>
  );
}
