import { useState } from 'react';
import { useTranslation } from '../../shared/i18n/use-translation';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import Button from 'antd-mobile/es/components/button';
import { AUDIT_ENTITIES, type AuditEntry } from '@broker/contract';
import { endpoints } from '../../shared/api/contract';
import { request } from '../../shared/api/request';
import { PageFrame } from '../../shared/ui/page-frame';
import { EmptyState, LoadingState } from '../../shared/ui/states';
import { LoadFailedState } from '../../shared/ui/load-failed-state';
import { describeAuditChanges, describeAuditEntry } from './audit-words';
import './audit-locales';
import './audit.css';
import { formatDateTime } from '../../shared/format/date-format';

// Every kind the trail records has its chip (the contract owns the list).
const FILTERS = ['all', ...AUDIT_ENTITIES] as const;
type Filter = (typeof FILTERS)[number];
const PAGE_SIZE = 20;

const auditTrailQuery = (filter: Filter) =>
  infiniteQueryOptions({
    queryKey: ['auditTrail', 'list', filter],
    queryFn: ({ pageParam }) =>
      request(endpoints.getMyAuditTrail, {
        limit: PAGE_SIZE,
        ...(filter === 'all' ? {} : { entity: filter }),
        ...(pageParam === null ? {} : { cursor: pageParam }),
      }),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    // One's own trail changes with every save elsewhere in the app: always fetch it afresh.
    staleTime: 0,
  });

function AuditRow({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation();
  const changes = describeAuditChanges(entry, t);
  return (
    <li className="ba-audit__row" data-testid="audit-entry" data-action={entry.action}>
      <div className="ba-audit__head">
        <span className="ba-audit__what">{describeAuditEntry(entry, t)}</span>
        <time className="ba-caption ba-audit__time">{formatDateTime(entry.at)}</time>
      </div>
      {entry.customer?.customerNo && <div className="ba-caption ba-audit__who">{entry.customer.customerNo}</div>}
      {changes.length > 0 && (
        <ul className="ba-audit__changes">
          {changes.map((change) => (
            <li key={change.field}>
              <span className="ba-audit__field">{change.label}</span>
              <span className="ba-audit__from">{change.from}</span>
              <span className="ba-audit__arrow" aria-hidden="true">
                →
              </span>
              <span className="ba-audit__to">{change.to}</span>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

/** "My activity": what the signed-in staff member changed, newest first, in plain words. */
export default function AuditTrailPage() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<Filter>('all');
  const trail = useInfiniteQuery(auditTrailQuery(filter));
  const entries = trail.data?.pages.flatMap((page) => page.list) ?? [];

  return (
    <PageFrame className="ba-audit">
      <nav className="ba-row ba-audit__filters" aria-label={t('audit.total')}>
        {FILTERS.map((key) => (
          <button key={key} type="button" className="ba-audit__filter ba-hit" aria-pressed={filter === key} onClick={() => setFilter(key)}>
            {t(`audit.filter.${key}`)}
          </button>
        ))}
      </nav>
      {trail.isPending ? (
        <LoadingState rows={4} />
      ) : trail.isError ? (
        <LoadFailedState error={trail.error} subject="content" onRetry={() => void trail.refetch()} />
      ) : entries.length === 0 ? (
        <EmptyState title={t('audit.empty')} description={t('audit.emptyDescription')} />
      ) : (
        <>
          <ul className="ba-surface ba-plain-list ba-audit__list" data-testid="audit-list">
            {entries.map((entry) => (
              <AuditRow key={entry.id} entry={entry} />
            ))}
          </ul>
          <div className="ba-caption ba-audit__footer">
            {trail.hasNextPage ? (
              <Button size="small" fill="outline" loading={trail.isFetchingNextPage} onClick={() => void trail.fetchNextPage()}>
                {t('audit.more')}
              </Button>
            ) : (
              <span>{t('audit.end')}</span>
            )}
          </div>
        </>
      )}
    </PageFrame>
  );
}
