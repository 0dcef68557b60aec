import { useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useMutation, useQuery } from '@tanstack/react-query';
import Button from 'antd-mobile/es/components/button';
import RightOutline from 'antd-mobile-icons/es/RightOutline';
import type { ContactRecord } from '@broker/contract';
import { useTranslation } from '../../shared/i18n/use-translation';
import { ApiError, ClientErrorCode } from '../../shared/api/api-error';
import { ErrorCode } from '../../shared/api/contract';
import { queryClient } from '../../shared/api/query-client';
import { showToast } from '../../shared/api/toast';
import { PageFrame } from '../../shared/ui/page-frame';
import { EmptyState, LoadingState } from '../../shared/ui/states';
import Toast from '../../shared/ui/antd-toast';
import { useDraft } from '../../shared/drafts/use-draft';
import { useDraftNotice } from '../../shared/drafts/draft-notice';
import { DraftChoice } from '../../shared/drafts/draft-choice';
import { bringIntoView, EditConflict, MergedNotice } from '../../shared/drafts/edit-conflict';
import type { MergeChoice } from '../../shared/drafts/edit-merge';
import { allDrafts } from '../../shared/drafts/draft-store';
import { contactRecordQuery, useReviseContactRecord } from './contact-api';
import {
  appendText,
  changedFields,
  contactMerge,
  isLocked,
  isReviseDraft,
  keepsBoth,
  mergedContact,
  recordFormValues,
  revisePayload,
  reviseDraftKey,
  validateContactForm,
  type ContactField,
  type ContactFormValues,
  type ReviseDraft,
} from './contact-form';
import { ContactFields, Field, fieldId, focusFirstError } from './contact-fields';
import { ChannelLabel, ContactErrorState, LockLine, PurposeTag, RecordContent } from './contact-parts';
import { parseRecordId } from './contact-params';
import { contactFormPath, contactLogPath } from './contact-paths';
import { formatDateTime } from '../../shared/format/date-format';

/** One version as a card: how and why, when, by whom, its content. */
function VersionCard({ record, current }: { record: ContactRecord; current: boolean }) {
  const { t } = useTranslation();
  return (
    <article
      className={current ? 'ba-surface ba-crecord ba-crecord--current' : 'ba-surface ba-crecord'}
      data-testid={current ? 'contact-record' : 'contact-version'}
      data-version={record.version}
    >
      <header className="ba-wrap ba-crecord__head">
        <ChannelLabel channel={record.channel} />
        <PurposeTag purpose={record.purpose} />
        <span className="ba-caption ba-crecord__version">
          {t('contact.record.version', { version: record.version })}
          {current && record.version > 1 && ` · ${t('contact.record.latest')}`}
        </span>
      </header>
      <p className="ba-crecord__when">
        <time>{formatDateTime(record.servedAt)}</time>
      </p>
      <RecordContent record={record} />
      <footer className="ba-crecord__foot">
        <span>{t('contact.record.by', { name: record.staffName })}</span>
        <span>{t('contact.record.writtenAt', { time: formatDateTime(record.createdAt) })}</span>
      </footer>
    </article>
  );
}

type MergeField = keyof ContactFormValues;

type Choices = Partial<Record<MergeField, MergeChoice>>;

/** Words that keep a correction's reason in the note (`contact.record.reasonLine`). */
type ReasonLine = (reason: string) => string;

/**
 * The change moved onto `latest`, each clash as chosen. A version not yet locked is edited in place, which keeps no
 * reason (docs/contact-log.md): a reason typed moves into the note rather than being dropped.
 */
function rebased(form: ReviseDraft, latest: ContactRecord, choices: Choices, reasonLine: ReasonLine): ReviseDraft {
  const values = mergedContact(form.started, form.values, recordFormValues(latest), choices);
  const moveReason = !isLocked(latest) && form.reason.trim() !== '';
  return {
    basedOn: latest.recordId,
    edits: latest.edits,
    started: recordFormValues(latest),
    values: moveReason ? { ...values, note: appendText(values.note, reasonLine(form.reason.trim())) } : values,
    reason: moveReason ? '' : form.reason,
  };
}

/** The editor's first state: a restored change over a newer version is merged, or opens the choice where both changed a field. */
function startFrom(record: ContactRecord, draft: ReviseDraft | null, reasonLine: ReasonLine) {
  const form = draft ?? {
    basedOn: record.recordId,
    edits: record.edits,
    started: recordFormValues(record),
    values: recordFormValues(record),
    reason: '',
  };
  if (form.basedOn === record.recordId && form.edits === record.edits) return { form, merge: null, taken: null };
  const { clashes, taken } = contactMerge(form.started, form.values, recordFormValues(record));
  if (clashes.length > 0) return { form, merge: record, taken: null };
  return { form: rebased(form, record, {}, reasonLine), merge: null, taken };
}

/** Editing before the lock, correcting after it (with a reason): the same fields as the log form. */
function Editor({ record, correcting, onDone }: { record: ContactRecord; correcting: boolean; onDone: () => void }) {
  const { t } = useTranslation();
  const draft = useDraft(
    reviseDraftKey(record.threadId),
    isReviseDraft,
    (data) => changedFields(data.started, data.values).length === 0 && !data.reason.trim(),
  );
  const reasonLine: ReasonLine = (reason) => t('contact.record.reasonLine', { reason });
  const [first] = useState(() => startFrom(record, draft.restored?.data ?? null, reasonLine));
  // A draft is against the version it was typed on: saving it over a newer one is refused (090409), then merged.
  const [form, setForm] = useState<ReviseDraft>(first.form);
  // A version saved meanwhile, met by the change: the user chooses per field both changed (ADR 0013).
  const [merge, setMerge] = useState<ContactRecord | null>(first.merge);
  const [taken, setTaken] = useState<MergeField[] | null>(first.taken);
  const { notice, hide } = useDraftNotice(draft, first.merge || first.taken ? null : draft.restored);
  const [submitted, setSubmitted] = useState(false);
  const [touched, setTouched] = useState<ReadonlySet<ContactField>>(() => new Set());
  const [refusal, setRefusal] = useState<string | null>(null);
  const [lockedMeanwhile, setLockedMeanwhile] = useState(false);
  const [reasonMoved, setReasonMoved] = useState(() => draft.restored !== null && draft.restored.data.reason !== first.form.reason);
  const revise = useReviseContactRecord();
  const asCorrection = correcting || lockedMeanwhile;

  useEffect(() => draft.keep(form), [draft, form]);

  const errors = validateContactForm(form.values, { correcting: asCorrection, correctionReason: form.reason });
  const shown = Object.fromEntries(Object.entries(errors).filter(([field]) => submitted || touched.has(field as ContactField)));

  const label = (field: MergeField) =>
    field === 'servedDay' || field === 'servedTime'
      ? `${t('contact.form.when')} · ${t(field === 'servedDay' ? 'contact.form.day' : 'contact.form.time')}`
      : t(`contact.form.${field}`);
  const inWords = (field: MergeField, values: ContactFormValues) =>
    field === 'channel'
      ? t(`contact.channel.${values.channel}`)
      : field === 'purpose'
        ? t(`contact.purpose.${values.purpose}`)
        : values[field];

  const close = () => {
    draft.saved();
    onDone();
  };

  const applyMerge = (latest: ContactRecord, choices: Choices) => {
    const next = rebased(form, latest, choices, reasonLine);
    setTaken(contactMerge(form.started, form.values, recordFormValues(latest)).taken);
    setForm(next);
    setReasonMoved(next.reason !== form.reason);
    // Whether the change is a correction is the new version's to say.
    setLockedMeanwhile(false);
    setMerge(null);
    hide();
  };

  /** A save refused as stale: the record as it stands now (fetched afresh; any version's id finds it), met field by field. */
  const meetLatest = useMutation({
    mutationFn: () => queryClient.fetchQuery({ ...contactRecordQuery(record.recordId), staleTime: 0 }),
    onSuccess: ({ record: latest }) => {
      void queryClient.invalidateQueries({ queryKey: ['contactRecord'] });
      if (contactMerge(form.started, form.values, recordFormValues(latest)).clashes.length === 0) applyMerge(latest, {});
      else setMerge(latest);
    },
    onError: (error) => showToast(error.message),
  });

  const submit = () => {
    setSubmitted(true);
    setRefusal(null);
    setTaken(null);
    if (focusFirstError(errors)) return;
    if (changedFields(form.started, form.values).length === 0) {
      void Toast.show({ content: t('contact.unchanged') });
      return;
    }
    draft.submitting(form);
    revise.mutate(revisePayload(form.basedOn, form.edits, form.values, asCorrection ? form.reason : null), {
      onSuccess: (saved) => {
        draft.saved();
        Toast.show({ icon: 'success', content: t(saved.version > record.version ? 'contact.corrected' : 'contact.edited') });
        onDone();
      },
      onError: (error) => {
        if (!draft.failed(error, form)) return;
        if (error instanceof ApiError && error.code === ErrorCode.CONFLICT) {
          meetLatest.mutate();
          return;
        }
        if (error instanceof ApiError && Object.values<string>(ClientErrorCode).includes(error.code)) {
          showToast(error.message);
          return;
        }
        // It locked while being edited, or someone else wrote it: the same text becomes a correction, with its reason.
        if (
          !asCorrection &&
          (Date.now() >= record.locksAt || (error instanceof ApiError && error.message.startsWith('correctionReason')))
        ) {
          setLockedMeanwhile(true);
          setRefusal(t('contact.error.lockedMeanwhile'));
          return;
        }
        setRefusal(error instanceof Error ? error.message : String(error));
      },
    });
  };

  const standing = merge && contactMerge(form.started, form.values, recordFormValues(merge));

  return (
    <PageFrame
      className="ba-contact"
      footer={
        <footer className="ba-footer-bar ba-footer-bar--form ba-contact-footer ba-contact-footer--split">
          <Button onClick={close} data-testid="contact-cancel">
            {t('nav.cancel')}
          </Button>
          <Button
            color="primary"
            loading={revise.isPending || meetLatest.isPending}
            disabled={merge !== null}
            onClick={submit}
            data-testid="contact-save"
          >
            {asCorrection ? t('contact.record.saveCorrection') : t('contact.record.save')}
          </Button>
        </footer>
      }
    >
      <h2 className="ba-contact-heading">{asCorrection ? t('contact.record.correctTitle') : t('contact.record.editTitle')}</h2>
      {asCorrection && <p className="ba-contact-notice ba-tone--blue">{t('contact.record.correctHint')}</p>}
      {merge && standing && (
        <EditConflict
          merge={standing}
          label={label}
          theirs={(field) => inWords(field, recordFormValues(merge))}
          mine={(field) => inWords(field, form.values)}
          canKeepBoth={keepsBoth}
          onApply={(choices) => applyMerge(merge, choices)}
        />
      )}
      {!merge && notice()}
      {taken && <MergedNotice taken={taken.map(label)} />}
      {reasonMoved && (
        <p ref={bringIntoView} className="ba-draft" role="status" data-testid="contact-reason-moved">
          {t('contact.record.reasonMoved')}
        </p>
      )}
      <ContactFields
        refusal={refusal}
        values={form.values}
        onChange={(values) => setForm((current) => ({ ...current, values }))}
        errors={shown}
        onBlur={(field) => setTouched((current) => new Set(current).add(field))}
      >
        {/* A reason typed stays in sight, also while a version saved meanwhile is being merged. */}
        {(asCorrection || form.reason.trim() !== '') && (
          <Field
            field="correctionReason"
            label={t('contact.record.reason')}
            required
            error={shown.correctionReason && t(`contact.error.${shown.correctionReason.key}`, { max: shown.correctionReason.max })}
            count={form.reason.trim().length}
          >
            <textarea
              id={fieldId('correctionReason')}
              className="ba-form-input ba-cinput ba-cinput--area"
              rows={2}
              placeholder={t('contact.record.reasonPlaceholder')}
              value={form.reason}
              onChange={(event) => setForm((current) => ({ ...current, reason: event.target.value }))}
              onBlur={() => setTouched((current) => new Set(current).add('correctionReason'))}
            />
          </Field>
        )}
      </ContactFields>
    </PageFrame>
  );
}

function RecordView({ recordId }: { recordId: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const query = useQuery(contactRecordQuery(recordId));
  const threadId = query.data?.record.threadId;
  /** null: the user has not chosen; then the editor is open when a change of this record was left unsaved. */
  const [editing, setEditing] = useState<boolean | null>(null);
  const [now, setNow] = useState(() => Date.now());
  // A change left unsaved (a sign-in, a crash) opens the editor again with it, once the record is in.
  const leftUnsaved = useMemo(() => threadId !== undefined && allDrafts(reviseDraftKey(threadId), isReviseDraft).length > 0, [threadId]);
  const isEditing = editing ?? leftUnsaved;

  // The lock comes while the page is open: the action changes from edit to correct at that moment.
  const locksAt = query.data?.record.locksAt;
  useEffect(() => {
    if (locksAt === undefined || now >= locksAt) return undefined;
    const timer = setTimeout(() => setNow(Date.now()), Math.min(locksAt - now + 50, 2_147_000_000));
    return () => clearTimeout(timer);
  }, [locksAt, now]);

  if (query.isPending)
    return (
      <PageFrame>
        <LoadingState rows={2} />
      </PageFrame>
    );
  if (query.isError)
    return (
      <PageFrame>
        <ContactErrorState error={query.error} subject="record" onRetry={() => void query.refetch()} />
      </PageFrame>
    );

  const { record, versions } = query.data;
  const locked = isLocked(record, now);

  if (isEditing)
    return (
      // Kept mounted through newer versions of the record (a conflict refetches it): what is typed stays on screen.
      <DraftChoice
        key={record.threadId}
        page
        draftKey={reviseDraftKey(record.threadId)}
        accept={isReviseDraft}
        describe={(draft) => draft.values.note}
      >
        <Editor
          record={record}
          correcting={locked}
          onDone={() => {
            setEditing(false);
            setNow(Date.now());
          }}
        />
      </DraftChoice>
    );

  return (
    <PageFrame
      className="ba-contact"
      footer={
        <footer className={`ba-footer-bar ba-footer-bar--form ba-contact-footer${record.nextStep ? ' ba-contact-footer--split' : ''}`}>
          {record.nextStep && (
            <Button
              onClick={() => navigate(contactFormPath({ customerId: record.customerId, followsRecordId: record.recordId }))}
              data-testid="contact-follow-up"
            >
              {t('contact.record.followUp')}
            </Button>
          )}
          <Button color="primary" onClick={() => setEditing(true)} data-testid={locked ? 'contact-correct' : 'contact-edit'}>
            {locked ? t('contact.record.correct') : t('contact.record.edit')}
          </Button>
        </footer>
      }
    >
      <Link to={contactLogPath(record.customerId)} className="ba-contact-crumb" data-testid="contact-log-link">
        <span>
          <b>{record.customerName}</b> · {t('contact.record.log')}
        </span>
        <RightOutline />
      </Link>
      <div className="ba-contact-status">
        <LockLine record={record} now={now} />
      </div>
      <VersionCard record={record} current />
      <section className="ba-cversions" data-testid="contact-versions">
        <h3 className="ba-cversions__title">
          {versions.length > 0 ? t('contact.record.versionsCount', { count: versions.length }) : t('contact.record.noVersions')}
        </h3>
        {versions.map((version) => (
          <VersionCard key={version.recordId} record={version} current={false} />
        ))}
      </section>
    </PageFrame>
  );
}

/** One contact record as it stands, its earlier versions, and changing it: edit before the lock, correct after. */
export default function ContactRecordPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const recordId = parseRecordId(search);
  if (recordId === null)
    return (
      <PageFrame>
        <EmptyState title={t('contact.record.missing')} description={t('contact.record.missingDescription')} />
      </PageFrame>
    );
  return <RecordView key={recordId} recordId={recordId} />;
}
