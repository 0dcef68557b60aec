import { useQuery } from '@tanstack/react-query';
import type { MotRank, MotRule, MotSnooze } from '@broker/contract';
import { useTranslation } from '../../shared/i18n/use-translation';
import { Card } from '../../shared/ui/card';
import { formatNumber } from '../../shared/format/number-format';
import './locales';
import './mot-rank.css';
import { eventRankQuery } from './mot-api';
import { formatDateTime } from '../../shared/format/date-format';

/** "Why this rank": the score and each of its four factors with the fact it came from (ADR 0041). */
function RankFactors({ rank, rule }: { rank: MotRank; rule: MotRule }) {
  const { t } = useTranslation();
  const rows: { key: string; label: string; fact: string; value: number }[] = [
    {
      key: 'type',
      label: t('mot.rank.typeWeight'),
      fact: t(`mot.rule.${rule}`),
      value: rank.typeWeight,
    },
    {
      key: 'tier',
      label: t('mot.rank.tier'),
      fact: t('mot.rank.tierValue', { tier: rank.tier, assets: formatNumber(rank.totalAssetsHkd, 0) }),
      value: rank.tierFactor,
    },
    {
      key: 'overdue',
      label: t('mot.rank.overdue'),
      fact: rank.overdueDays > 0 ? t('mot.rank.overdueValue', { count: rank.overdueDays }) : t('mot.rank.overdueNone'),
      value: rank.overdueFactor,
    },
    {
      key: 'contact',
      label: t('mot.rank.contact'),
      fact: rank.daysSinceContact === null ? t('mot.rank.contactNever') : t('mot.rank.contactValue', { count: rank.daysSinceContact }),
      value: rank.contactFactor,
    },
  ];
  return (
    <>
      <div className="mot-rank-score">
        <span className="mot-rank-score__label">{t('mot.rank.score')}</span>
        <span className="mot-rank-score__value" data-testid="mot-rank-score">
          {formatNumber(rank.score, 1)}
        </span>
      </div>
      <p className="ba-caption mot-rank-formula">{t('mot.rank.formula')}</p>
      <dl className="mot-rank-factors" data-testid="mot-rank-factors">
        {rows.map((row) => (
          <div className="ba-wrap mot-rank-factors__row" key={row.key} data-factor={row.key}>
            <dt>{row.label}</dt>
            <dd>
              <span className="mot-rank-factors__fact">{row.fact}</span>
              <span className="mot-rank-factors__value">{t('mot.rank.factor', { factor: formatNumber(row.value, 2) })}</span>
            </dd>
          </div>
        ))}
      </dl>
    </>
  );
}

function SnoozeHistory({ snoozes }: { snoozes: MotSnooze[] }) {
  const { t } = useTranslation();
  return (
    <ol className="ba-plain-list" data-testid="mot-snoozes">
      {snoozes.map((snooze) => (
        <li className="mot-snoozes__item" key={snooze.snoozeId}>
          <div className="ba-wrap mot-snoozes__head">
            <span className="mot-snoozes__days">{t('mot.snooze.historyLine', { from: snooze.fromDate, to: snooze.toDate })}</span>
            <span className="mot-snoozes__reason">{t(`mot.snooze.reasons.${snooze.reason}`)}</span>
          </div>
          {snooze.note && <p className="mot-snoozes__note">{snooze.note}</p>}
          <div className="mot-snoozes__by">{t('mot.snooze.by', { name: snooze.staffName, at: formatDateTime(snooze.snoozedAt) })}</div>
        </li>
      ))}
    </ol>
  );
}

/** The event's rank (while pending) and its snoozes, as cards of the event detail. */
export function EventRankCards({ eventId, rule }: { eventId: number; rule: MotRule }) {
  const { t } = useTranslation();
  const answer = useQuery(eventRankQuery(eventId));
  if (!answer.data) return null;
  const { rank, snoozes } = answer.data;
  return (
    <>
      {rank && (
        <Card title={t('mot.rank.why')} className="mot-card">
          <RankFactors rank={rank} rule={rule} />
        </Card>
      )}
      {snoozes.length > 0 && (
        <Card title={t('mot.snooze.history')} className="mot-card">
          <SnoozeHistory snoozes={snoozes} />
        </Card>
      )}
    </>
  );
}
