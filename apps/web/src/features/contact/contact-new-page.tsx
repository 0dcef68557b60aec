import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import Button from 'antd-mobile/es/components/button';
import type { ContactRecord, MotCustomerSummary, MotEvent } from '@broker/contract';
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
import { DraftChoice, UnreachableDrafts } from '../../shared/drafts/draft-choice';
import { writeDraft } from '../../shared/drafts/draft-store';
import { forgetHandover, handedOver } from '../../shared/drafts/handover';
import { contactClientQuery, contactEventQuery, contactRecordQuery, useAddContactRecord } from './contact-api';
import {
  addPayload,
  appendText,
  isNewContactDraft,
  isNewContactUntouched,
  newContactDraftKey,
  newFormValues,
  newRequestId,
  suggestedPurpose,
  validateContactForm,
  type ContactField,
  type NewContactDraft,
} from './contact-form';
import { ContactFields, focusFirstError } from './contact-fields';
import { ClientStrip, ContactErrorState, EventTag } from './contact-parts';
import { parseContactFormParams, type ContactFormParamName, type ContactFormParams } from './contact-params';
import { contactRecordPath } from './contact-paths';
import { formatDate } from '../../shared/format/date-format';

/** What was typed, to tell drafts apart or to copy. */
const describeNewContact = ({ values }: NewContactDraft) =>
  [values.note, values.outcome, values.nextStep, values.suitability].filter((text) => text.trim()).join('\n');

interface FormProps {
  params: ContactFormParams;
  customer: MotCustomerSummary;
  /** The client's pending events, the linked one of the link first if it is pending. */
  pending: MotEvent[];
  /** Events the link asks to tick (checked to be this client's and pending). */
  preTicked: number[];
  follows: ContactRecord | null;
  notices: string[];
}

function ContactForm({ params, customer, pending, preTicked, follows, notices }: FormProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const draftKey = newContactDraftKey(params.customerId);
  const draft = useDraft(draftKey, isNewContactDraft, isNewContactUntouched);
  // Typed in MOT's handle sheet before the user asked for this form: it comes along, like a restored draft.
  const [handed] = useState(() => handedOver(draftKey));
  const { notice } = useDraftNotice(draft, draft.restored ?? (handed ? { submitting: false } : null));
  const fresh = (): NewContactDraft => ({
    values: newFormValues({
      channel: params.channel,
      at: params.at,
      purpose: suggestedPurpose(pending.find((event) => preTicked.includes(event.eventId))?.rule, follows !== null),
    }),
    eventIds: preTicked,
    requestId: newRequestId(),
    followsRecordId: follows?.recordId ?? null,
  });
  // A restored draft wins, with the link's event ticked too and any event handled meanwhile dropped.
  const [form, setForm] = useState<NewContactDraft>(() => {
    const kept = draft.restored?.data;
    const start = kept
      ? { ...kept, eventIds: [...new Set([...kept.eventIds, ...preTicked])].filter((id) => pending.some((event) => event.eventId === id)) }
      : fresh();
    if (!handed) return start;
    const values = {
      ...start.values,
      note: appendText(start.values.note, handed.note),
      outcome: appendText(start.values.outcome, handed.outcome),
    };
    return { ...start, values };
  });
  const [submitted, setSubmitted] = useState(false);
  const [touched, setTouched] = useState<ReadonlySet<ContactField>>(() => new Set());
  const [refusal, setRefusal] = useState<string | null>(null);
  const add = useAddContactRecord();

  // Kept while typing, so neither a session expiry nor a crash loses the note (nor the attempt's request id).
  useEffect(() => draft.keep(form), [draft, form]);
  // What was handed over is this form's own draft now (written at once, then the handover is dropped).
  useEffect(() => {
    if (!handed) return;
    writeDraft(draftKey, form);
    forgetHandover(draftKey);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, with the form as it opened
  }, []);

  const errors = validateContactForm(form.values, { openDate: customer.openDate, eventIds: form.eventIds });
  const shown = Object.fromEntries(Object.entries(errors).filter(([field]) => submitted || touched.has(field as ContactField)));

  const toggleEvent = (eventId: number) =>
    setForm((current) => ({
      ...current,
      eventIds: current.eventIds.includes(eventId) ? current.eventIds.filter((id) => id !== eventId) : [...current.eventIds, eventId],
    }));

  const discard = () => {
    setForm(fresh());
    setSubmitted(false);
    setTouched(new Set());
    setRefusal(null);
  };

  const submit = () => {
    setSubmitted(true);
    setRefusal(null);
    if (focusFirstError(errors)) return;
    draft.submitting(form);
    // Only events still pending are sent (one handled meanwhile has left the list).
    const eventIds = form.eventIds.filter((id) => pending.some((event) => event.eventId === id));
    add.mutate(addPayload(params.customerId, form.values, eventIds, form.requestId), {
      onSuccess: (record) => {
        draft.saved();
        Toast.show({ icon: 'success', content: t('contact.saved') });
        navigate(contactRecordPath(record.recordId), { replace: true });
      },
      onError: (error) => {
        // Refused or lost on the way: everything stays, with the same request id, so sending again writes it once.
        if (!draft.failed(error, form)) return;
        if (error instanceof ApiError && error.code === ErrorCode.CONFLICT) {
          // Nothing was written (an event handled meanwhile): its events are read again, and a fresh id is safe now.
          const next = { ...form, requestId: newRequestId() };
          setForm(next);
          draft.keep(next);
          void queryClient.invalidateQueries({ queryKey: contactClientQuery(params.customerId).queryKey });
          setRefusal(t('contact.error.eventHandled'));
          return;
        }
        if (error instanceof ApiError && !Object.values<string>(ClientErrorCode).includes(error.code)) setRefusal(error.message);
        else showToast(error.message);
      },
    });
  };

  return (
    <PageFrame
      className="ba-contact"
      footer={
        <footer className="ba-footer-bar ba-footer-bar--form ba-contact-footer">
          <Button block color="primary" loading={add.isPending} onClick={submit} data-testid="contact-save">
            {t('contact.form.submit')}
          </Button>
        </footer>
      }
    >
      <ClientStrip customer={customer} />
      {notices.map((notice) => (
        <p key={notice} className="ba-contact-notice ba-tone--amber" role="status" data-testid="contact-notice">
          {notice}
        </p>
      ))}
      {notice(discard)}
      {follows && (
        <p className="ba-contact-notice ba-tone--blue" data-testid="contact-follows">
          {t('contact.form.follows', { date: formatDate(follows.servedAt) })}
        </p>
      )}
      <ContactFields
        refusal={refusal}
        values={form.values}
        onChange={(values) => setForm((current) => ({ ...current, values }))}
        errors={shown}
        onBlur={(field) => setTouched((current) => new Set(current).add(field))}
      >
        <div className="ba-form-row" data-field="eventIds">
          <div className="ba-cfield__head">
            <span className="ba-cfield__label">{t('contact.form.events')}</span>
          </div>
          {pending.length === 0 ? (
            <p className="ba-caption ba-form-hint">{t('contact.form.eventsNone')}</p>
          ) : (
            <>
              <div className="ba-choice-chips ba-cevents" role="group" aria-label={t('contact.form.events')} data-testid="contact-events">
                {pending.map((event) => (
                  <button
                    key={event.eventId}
                    type="button"
                    role="checkbox"
                    aria-checked={form.eventIds.includes(event.eventId)}
                    className={form.eventIds.includes(event.eventId) ? 'ba-choice-chip ba-hit ba-choice-chip--on' : 'ba-choice-chip ba-hit'}
                    onClick={() => toggleEvent(event.eventId)}
                    data-event-id={event.eventId}
                  >
                    <span className="ba-cevents__box" aria-hidden="true" />
                    <EventTag event={event} />
                  </button>
                ))}
              </div>
              <p className="ba-caption ba-form-hint">{t('contact.form.eventsHint')}</p>
            </>
          )}
          {shown.eventIds && (
            <p className="ba-form-error ba-cfield__error" role="alert">
              {t(`contact.error.${shown.eventIds.key}`, { max: shown.eventIds.max })}
            </p>
          )}
        </div>
      </ContactFields>
    </PageFrame>
  );
}

function NewContact({ params, ignored }: { params: ContactFormParams; ignored: ContactFormParamName[] }) {
  const { t } = useTranslation();
  const client = useQuery(contactClientQuery(params.customerId));
  const event = useQuery({ ...contactEventQuery(params.eventId ?? 0), enabled: params.eventId !== null });
  const follows = useQuery({ ...contactRecordQuery(params.followsRecordId ?? 0), enabled: params.followsRecordId !== null });

  if (client.isPending || (params.eventId !== null && event.isPending) || (params.followsRecordId !== null && follows.isPending))
    return (
      <PageFrame>
        <LoadingState rows={3} />
      </PageFrame>
    );
  if (client.isError)
    return (
      <PageFrame>
        <ContactErrorState error={client.error} onRetry={() => void client.refetch()} />
        <UnreachableDrafts draftKey={newContactDraftKey(params.customerId)} accept={isNewContactDraft} describe={describeNewContact} />
      </PageFrame>
    );

  const notices: string[] = [];
  const names = [...ignored];
  const pending = client.data.list.filter((event) => event.status !== 'handled');
  const preTicked: number[] = [];
  if (params.eventId !== null) {
    if (event.isError) notices.push(t('contact.form.eventUnavailable'));
    else if (event.data && event.data.event.customerId !== params.customerId) notices.push(t('contact.form.eventNotThisClient'));
    else if (event.data?.event.status === 'handled') notices.push(t('contact.form.eventHandledAlready'));
    else if (event.data) {
      // The linked event first, even if it is older than the latest events the client list carries.
      const linked = event.data.event;
      if (!pending.some((item) => item.eventId === linked.eventId)) pending.unshift(linked);
      preTicked.push(linked.eventId);
    }
  }
  let followed: ContactRecord | null = null;
  if (params.followsRecordId !== null) {
    const record = follows.data?.record;
    if (!record || record.customerId !== params.customerId) names.push('followsRecordId');
    else {
      followed = record;
      // Completing the follow-up its next step raised: that event is linked too.
      if (
        record.followUpEventId &&
        pending.some((item) => item.eventId === record.followUpEventId) &&
        !preTicked.includes(record.followUpEventId)
      )
        preTicked.push(record.followUpEventId);
    }
  }
  if (names.length > 0)
    notices.unshift(t('contact.form.ignored', { names: names.map((name) => t(`contact.form.paramNames.${name}`)).join('、') }));

  return (
    <DraftChoice page draftKey={newContactDraftKey(params.customerId)} accept={isNewContactDraft} describe={describeNewContact}>
      <ContactForm
        params={params}
        customer={client.data.customer}
        pending={pending}
        preTicked={preTicked}
        follows={followed}
        notices={notices}
      />
    </DraftChoice>
  );
}

/** Log a contact with a client: how, why, when, what was said and what comes next; prefilled from the link. */
export default function ContactNewPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const query = search.toString();
  // Read once per link: `at` is checked against the clock of the moment the page opened with it.
  const parsed = useMemo(() => parseContactFormParams(new URLSearchParams(query)), [query]);
  if (!parsed.ok)
    return (
      <PageFrame>
        <EmptyState title={t('contact.noCustomer')} description={t('contact.noCustomerDescription')} />
      </PageFrame>
    );
  return <NewContact key={query} params={parsed.params} ignored={parsed.ignored} />;
}
