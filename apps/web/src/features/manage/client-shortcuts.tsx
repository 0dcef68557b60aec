import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { ShortcutClient } from '@broker/contract';
import { clientName } from '@broker/domain';
import StarFill from 'antd-mobile-icons/es/StarFill';
import ClockCircleOutline from 'antd-mobile-icons/es/ClockCircleOutline';
import { useTranslation } from '../../shared/i18n/use-translation';
import { emptyFilters, fromSavedFilters, showsSavedFilters, useClientFilters } from './client-filters';
import { shortcutsQuery, useRecordOpened } from './manage-queries';
import { profilePath } from './client-row';
import './shortcuts-locales';
import './shortcuts.css';

function ClientChips({ clients, testId, icon }: { clients: ShortcutClient[]; testId: string; icon: ReactNode }) {
  const record = useRecordOpened();
  return (
    <div className="ba-chip-row ba-quick__row" data-testid={testId}>
      {clients.map((client) => (
        <Link
          key={client.customerId}
          className="ba-inline-row ba-quick__client"
          to={profilePath(client.customerId)}
          onClick={() => record(client.customerId)}
          data-customer-id={client.customerId}
        >
          {icon}
          <span className="ba-quick__name ba-ellipsis">{clientName(client)}</span>
        </Link>
      ))}
    </div>
  );
}

/** Back to my clients fast (ADR 0049): pinned clients, then the last ones opened, above the list. */
export function QuickClients() {
  const { t } = useTranslation();
  const shortcuts = useQuery(shortcutsQuery());
  const pinned = shortcuts.data?.pinned ?? [];
  // A pinned client is already one tap away: not shown twice.
  const recent = (shortcuts.data?.recentClients ?? []).filter((client) => !pinned.some((pin) => pin.customerId === client.customerId));
  if (pinned.length === 0 && recent.length === 0) return null;
  return (
    <section className="ba-surface ba-quick" data-testid="quick-clients">
      {pinned.length > 0 && (
        <div className="ba-quick__group">
          <h2 className="ba-quick__title">{t('manage.pins.title')}</h2>
          <ClientChips clients={pinned} testId="pinned-clients" icon={<StarFill className="ba-quick__star" />} />
        </div>
      )}
      {recent.length > 0 && (
        <div className="ba-quick__group">
          <h2 className="ba-quick__title">{t('manage.recent.clients')}</h2>
          <ClientChips clients={recent} testId="recent-clients" icon={<ClockCircleOutline className="ba-quick__clock" />} />
        </div>
      )}
    </section>
  );
}

/** The saved filters as chips: one tap applies the set (the keyword stays); tapping the one in force clears it. */
export function SavedFilterChips() {
  const { t } = useTranslation();
  const shortcuts = useQuery(shortcutsQuery());
  const applied = useClientFilters((state) => state.applied);
  const apply = useClientFilters((state) => state.apply);
  const saved = shortcuts.data?.savedFilters ?? [];
  if (saved.length === 0) return null;
  return (
    <nav className="ba-saved" aria-label={t('manage.saved.title')} data-testid="saved-filters">
      <div className="ba-chip-row">
        {saved.map((filter) => {
          const on = showsSavedFilters(applied, filter.filters);
          return (
            <button
              type="button"
              key={filter.filterId}
              className={on ? 'ba-saved__chip ba-saved__chip--on' : 'ba-saved__chip'}
              aria-pressed={on}
              onClick={() =>
                apply(on ? { ...emptyFilters(), keyword: applied.keyword } : fromSavedFilters(filter.filters, applied.keyword))
              }
            >
              {filter.name}
            </button>
          );
        })}
      </div>
    </nav>
  );
}

/** What the list shows of them, in one piece (one chunk): the saved filters always, pins and recents on the unfiltered list. */
export function ListShortcuts({ filtered }: { filtered: boolean }) {
  return (
    <>
      <SavedFilterChips />
      {!filtered && <QuickClients />}
    </>
  );
}
