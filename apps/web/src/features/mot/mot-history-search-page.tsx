import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from '../../shared/i18n/use-translation';
import { useInfiniteQuery } from '@tanstack/react-query';
import SearchBar from 'antd-mobile/es/components/search-bar';
import Popup from 'antd-mobile/es/components/popup';
import Button from 'antd-mobile/es/components/button';
import DatePicker from 'antd-mobile/es/components/date-picker';
import FilterOutline from 'antd-mobile-icons/es/FilterOutline';
import CloseOutline from 'antd-mobile-icons/es/CloseOutline';
import { MOT_RULES, serviceChannelValues } from '../../shared/api/contract';
import { PageFrame } from '../../shared/ui/page-frame';
import { LongList } from '../../shared/ui/long-list';
import { EmptyState, LoadingState } from '../../shared/ui/states';
import { LoadFailedState } from '../../shared/ui/load-failed-state';
import './locales';
import { motClientPath } from './mot-paths';
import { serviceHistoryQuery, type HistoryFilter } from './mot-api';
import { addDays, hongKongDay } from '@broker/domain';
import { LoadMore, ServiceRecordBody } from './mot-parts';
import { SheetHead } from '../../shared/ui/sheet';
import { isDay, isObject, isString, useRestorableState } from '../../shared/drafts/page-state';

type Filters = Omit<HistoryFilter, 'keyword'>;

const isFilters = (value: unknown): value is Filters => {
  const filters = value as Filters | null;
  return (
    isObject(filters) &&
    !Array.isArray(filters) &&
    Object.keys(filters).every((key) => ['rule', 'channel', 'dateFrom', 'dateTo'].includes(key)) &&
    (filters.rule === undefined || MOT_RULES.includes(filters.rule)) &&
    (filters.channel === undefined || serviceChannelValues.includes(filters.channel)) &&
    (filters.dateFrom === undefined || isDay(filters.dateFrom)) &&
    (filters.dateTo === undefined || isDay(filters.dateTo))
  );
};

const toDay = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
const fromDay = (day: string) => new Date(`${day}T00:00:00`);

function Chips<T extends string>({
  options,
  value,
  label,
  onChange,
}: {
  options: readonly T[];
  value: T | undefined;
  label: (option: T) => string;
  onChange: (value: T | undefined) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="ba-choice-chips mot-chips">
      {[undefined, ...options].map((option) => (
        <button
          key={option ?? 'any'}
          type="button"
          className={value === option ? 'ba-choice-chip ba-hit mot-chip ba-choice-chip--on' : 'ba-choice-chip ba-hit mot-chip'}
          onClick={() => onChange(option)}
        >
          {option ? label(option) : t('mot.history.any')}
        </button>
      ))}
    </div>
  );
}

function DateField({
  label,
  value,
  min,
  max,
  onChange,
}: {
  label: string;
  value: string | undefined;
  min?: string;
  max?: string;
  onChange: (day: string | undefined) => void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className={value ? 'mot-date-field mot-date-field--set' : 'mot-date-field'} onClick={() => setOpen(true)}>
        {value ?? label}
      </button>
      <DatePicker
        title={label}
        visible={open}
        value={fromDay(value ?? hongKongDay())}
        min={fromDay(min ?? addDays(hongKongDay(), -3 * 365))}
        max={fromDay(max ?? hongKongDay())}
        onClose={() => setOpen(false)}
        onConfirm={(date) => onChange(toDay(date))}
      />
    </>
  );
}

/** Mounted while the sheet is open (destroyOnClose), so each opening starts from the applied filters. */
function FilterForm({ filters, onClose, onApply }: { filters: Filters; onClose: () => void; onApply: (filters: Filters) => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<Filters>(filters);
  return (
    <>
      <SheetHead title={t('mot.history.filter')} onClose={onClose} />
      <div className="ba-sheet__body">
        <div className="mot-field">
          <div className="mot-field__label">{t('mot.history.rule')}</div>
          <Chips
            options={MOT_RULES}
            value={draft.rule}
            label={(rule) => t(`mot.rule.${rule}`)}
            onChange={(rule) => setDraft({ ...draft, rule })}
          />
        </div>
        <div className="mot-field">
          <div className="mot-field__label">{t('mot.handle.channel')}</div>
          <Chips
            options={serviceChannelValues}
            value={draft.channel}
            label={(channel) => t(`contact.channel.${channel}`)}
            onChange={(channel) => setDraft({ ...draft, channel })}
          />
        </div>
        <div className="mot-field">
          <div className="mot-field__label">{t('mot.history.dateRange')}</div>
          <div className="ba-row">
            <DateField
              label={t('mot.history.from')}
              value={draft.dateFrom}
              max={draft.dateTo}
              onChange={(dateFrom) => setDraft({ ...draft, dateFrom })}
            />
            <span className="mot-range__sep">—</span>
            <DateField
              label={t('mot.history.to')}
              value={draft.dateTo}
              min={draft.dateFrom}
              onChange={(dateTo) => setDraft({ ...draft, dateTo })}
            />
          </div>
        </div>
      </div>
      <div className="ba-sheet__foot mot-sheet__foot--split">
        <Button shape="rounded" size="large" onClick={() => setDraft({})}>
          {t('mot.history.reset')}
        </Button>
        <Button color="primary" shape="rounded" size="large" onClick={() => onApply(draft)}>
          {t('mot.history.apply')}
        </Button>
      </div>
    </>
  );
}

// Starting height of a service record row (px at 375 wide); the windowed list measures each once on screen.
const RECORD_ROW_ESTIMATE = 120;

function Results({ filter }: { filter: HistoryFilter }) {
  const { t } = useTranslation();
  const records = useInfiniteQuery(serviceHistoryQuery(filter));
  if (records.isPending) return <LoadingState rows={3} />;
  if (records.isError) return <LoadFailedState error={records.error} subject="content" onRetry={() => void records.refetch()} />;
  const rows = records.data.pages.flatMap((page) => page.list);
  if (rows.length === 0) return <EmptyState title={t('mot.history.empty')} />;
  return (
    <div data-testid="mot-history-list">
      <div className="mot-list__total mot-history__total">{t('mot.history.total', { count: records.data.pages[0]?.total ?? 0 })}</div>
      <LongList
        items={rows}
        itemKey={(record) => record.recordId}
        estimateSize={RECORD_ROW_ESTIMATE}
        renderItem={(record) => (
          <Link
            to={motClientPath(record.customerId)}
            className="ba-surface mot-row mot-row--record"
            data-customer-id={record.customerId}
            data-event-id={record.eventId ?? ''}
          >
            <ServiceRecordBody record={record} showClient />
          </Link>
        )}
      />
      <LoadMore list={records} saysEnd />
    </div>
  );
}

/** Service records: search by keyword (client, note, outcome), event type, channel and date. */
export default function MotHistorySearchPage() {
  const { t } = useTranslation();
  // The search and filters come back after a sign-in round trip or a reload (ADR 0013).
  const [draft, setDraft] = useRestorableState('search', '', isString);
  const [keyword, setKeyword] = useRestorableState('keyword', '', isString);
  const [filters, setFilters] = useRestorableState<Filters>('filters', {}, isFilters);
  const [filterOpen, setFilterOpen] = useState(false);
  const active = Object.values(filters).filter(Boolean).length;
  const closeFilter = () => setFilterOpen(false);

  useEffect(() => {
    const timer = setTimeout(() => setKeyword(draft.trim()), 350);
    return () => clearTimeout(timer);
  }, [draft, setKeyword]);

  const chips: { key: 'rule' | 'channel' | 'date'; label: string }[] = [];
  if (filters.rule) chips.push({ key: 'rule', label: t(`mot.rule.${filters.rule}`) });
  if (filters.channel) chips.push({ key: 'channel', label: t(`contact.channel.${filters.channel}`) });
  if (filters.dateFrom || filters.dateTo) chips.push({ key: 'date', label: `${filters.dateFrom ?? '…'} ~ ${filters.dateTo ?? '…'}` });

  return (
    <PageFrame className="mot-page">
      <div className="ba-row ba-search-head mot-search">
        <SearchBar
          placeholder={t('mot.history.searchPlaceholder')}
          value={draft}
          onChange={setDraft}
          onSearch={(value) => setKeyword(value.trim())}
          onClear={() => setKeyword('')}
        />
        <button
          type="button"
          className={active ? 'ba-bare mot-search__filter ba-hit mot-search__filter--on' : 'ba-bare mot-search__filter ba-hit'}
          onClick={() => setFilterOpen(true)}
        >
          <FilterOutline />
          <span>{t('mot.history.filter')}</span>
          {active > 0 && <span className="mot-search__badge">{active}</span>}
        </button>
      </div>
      {chips.length > 0 && (
        <div className="ba-wrap mot-active-filters">
          {chips.map((chip) => (
            <button
              key={chip.key}
              type="button"
              className="ba-choice-chip ba-hit mot-chip ba-choice-chip--on mot-chip--removable"
              onClick={() =>
                setFilters(
                  chip.key === 'date' ? { ...filters, dateFrom: undefined, dateTo: undefined } : { ...filters, [chip.key]: undefined },
                )
              }
            >
              {chip.label}
              <CloseOutline />
            </button>
          ))}
        </div>
      )}
      <Results filter={{ ...filters, keyword: keyword || undefined }} />
      <Popup visible={filterOpen} onMaskClick={closeFilter} onClose={closeFilter} bodyClassName="ba-sheet mot-sheet" destroyOnClose>
        <FilterForm
          filters={filters}
          onClose={closeFilter}
          onApply={(next) => {
            setFilters(next);
            closeFilter();
          }}
        />
      </Popup>
    </PageFrame>
  );
}
