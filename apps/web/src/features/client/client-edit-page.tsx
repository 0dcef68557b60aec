import { useEffect, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../shared/i18n/use-translation';
import Button from 'antd-mobile/es/components/button';
import CloseOutline from 'antd-mobile-icons/es/CloseOutline';
import type { CustomerBaseInfo } from '@broker/contract';
import { ErrorCode, endpoints } from '../../shared/api/contract';
import { request } from '../../shared/api/request';
import { ApiError } from '../../shared/api/api-error';
import { queryClient } from '../../shared/api/query-client';
import { showToast } from '../../shared/api/toast';
import { PageFrame } from '../../shared/ui/page-frame';
import { LoadingState } from '../../shared/ui/states';
import { focusField } from '../../shared/ui/focus-field';
import { useDraft } from '../../shared/drafts/use-draft';
import { useDraftNotice } from '../../shared/drafts/draft-notice';
import { DraftChoice, UnreachableDrafts } from '../../shared/drafts/draft-choice';
import { EditConflict, MergedNotice } from '../../shared/drafts/edit-conflict';
import type { MergeChoice } from '../../shared/drafts/edit-merge';
import { isObject, isText } from '../../shared/drafts/page-state';
import { baseInfoQuery, clientKeys, profileQuery } from './client-queries';
import { CLIENT_PATHS, useCustomerId, withCustomer } from './client-format';
import { NoCustomer } from './no-customer';
import { ClientErrorState } from './client-error-state';
import {
  changedFields,
  formValuesOf,
  freshEdit,
  keepsBoth,
  mergedProfile,
  profileMerge,
  REMARK_MAX,
  tagError,
  updatePayload,
  validateProfile,
  type ProfileEdit,
  type ProfileField,
  type ProfileFormValues,
} from './profile-form';
import './client-locales';
import '../../shared/ui/form.css';
import './client.css';

const FIELD_ORDER: ProfileField[] = ['nameEn', 'phone', 'email', 'tags', 'remark'];

/** An unsaved edit (ADR 0013), with the version and number on file it was against: restored over a newer profile, it is merged. */
type EditDraft = Omit<ProfileEdit, 'phoneOnFile'> & { phoneOnFile?: string | null; newTag: string };

const isFormValues = (value: unknown): value is ProfileFormValues => {
  const form = value as Partial<ProfileFormValues> | null;
  return (
    isObject(form) &&
    isText(form.nameEn, 200) &&
    isText(form.phone, 100) &&
    isText(form.email, 300) &&
    isText(form.remark, 2000) &&
    Array.isArray(form.tags) &&
    form.tags.length <= 50 &&
    form.tags.every((tag) => isText(tag, 100))
  );
};
const isEditDraft = (data: unknown): data is EditDraft => {
  const draft = data as Partial<EditDraft> | null;
  return (
    isObject(draft) &&
    Number.isSafeInteger(draft.version) &&
    isFormValues(draft.started) &&
    isFormValues(draft.values) &&
    isText(draft.newTag, 100) &&
    (draft.phoneOnFile === undefined || draft.phoneOnFile === null || isText(draft.phoneOnFile, 100))
  );
};
const editDraftKey = (customerId: number) => `clientEdit:${customerId}`;
/** The changes typed, to tell drafts apart. */
const describeEdit = (draft: EditDraft) => Object.values(changedFields(draft.started, draft.values)).flat().join(' · ');
const nothingTyped = (draft: EditDraft) => Object.keys(changedFields(draft.started, draft.values)).length === 0 && !draft.newTag.trim();

const historyIndex = () => (window.history.state as { idx?: number } | null)?.idx ?? 0;

function Field({
  label,
  error,
  children,
  htmlFor,
  required,
}: {
  label: string;
  error?: string;
  children: ReactNode;
  htmlFor?: string;
  required?: boolean;
}) {
  return (
    <div className={error ? 'ba-form-row ba-form-row--error ba-field' : 'ba-form-row ba-field'}>
      <label className="ba-field__label" htmlFor={htmlFor}>
        {label}
        {required && <span className="ba-form-required">*</span>}
      </label>
      <div className="ba-grow ba-field__control">
        {children}
        {error && (
          <p className="ba-form-error ba-field__error" role="alert">
            {error}
          </p>
        )}
      </div>
    </div>
  );
}

/** The form's first state: fresh, or a restored draft; over a newer version, merged (or, where both changed a field, to choose). */
function startFrom(info: CustomerBaseInfo, draft: EditDraft | null) {
  if (!draft) return { edit: freshEdit(info), merge: null, taken: null };
  const edit: ProfileEdit = { ...draft, phoneOnFile: draft.phoneOnFile === undefined ? info.phoneMasked : draft.phoneOnFile };
  if (edit.version === info.version) return { edit, merge: null, taken: null };
  const { clashes, taken } = profileMerge(edit, info);
  if (clashes.length > 0) return { edit, merge: info, taken: null };
  return { edit: mergedProfile(edit, info, {}), merge: null, taken };
}

function EditForm({ info }: { info: CustomerBaseInfo }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const kept = useDraft(editDraftKey(info.customerId), isEditDraft, nothingTyped);
  const typed = kept.restored && !nothingTyped(kept.restored.data) ? kept.restored : null;
  const [first] = useState(() => startFrom(info, typed?.data ?? null));
  // Said only of a draft laid over the version it was typed on; one merged onto a newer version says so instead.
  const { notice, hide } = useDraftNotice(kept, typed?.data.version === info.version ? typed : null);
  // `record` is the latest profile known (the who line, the number on file); `edit.version` the one the save is against.
  const [record, setRecord] = useState(info);
  const [edit, setEdit] = useState<ProfileEdit>(first.edit);
  // A profile saved meanwhile, met by the edit: the user chooses per field both changed (ADR 0013).
  const [merge, setMerge] = useState<CustomerBaseInfo | null>(first.merge);
  const [taken, setTaken] = useState<ProfileField[] | null>(first.taken);
  const [touched, setTouched] = useState<Partial<Record<ProfileField, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [newTag, setNewTag] = useState(kept.restored?.data.newTag ?? '');
  const { started, values } = edit;

  // Kept while typing, so neither a session expiry nor a crash loses the edit; while a merge is open, against the old version.
  useEffect(() => kept.keep({ ...edit, newTag }), [kept, edit, newTag]);

  const errors = validateProfile(values);
  const shown = (field: ProfileField) => {
    const error = errors[field];
    return error && (submitted || touched[field]) ? t(error.key, { max: error.max }) : undefined;
  };
  const newTagProblem = tagError(values.tags, newTag);
  const set = (field: ProfileField, value: ProfileFormValues[ProfileField]) =>
    setEdit((current) => ({ ...current, values: { ...current.values, [field]: value } }));
  const label = (field: ProfileField) => t(`client.edit.${field}`);
  const inWords = (value: string | string[]) => (Array.isArray(value) ? value.join(t('editConflict.listSeparator')) : value);
  // The number on file is only ever shown masked.
  const savedText = (field: ProfileField, latestInfo: CustomerBaseInfo) =>
    field === 'phone' ? (latestInfo.phoneMasked ?? '') : inWords(formValuesOf(latestInfo)[field]);
  const blur = (field: ProfileField) => () => setTouched((current) => ({ ...current, [field]: true }));

  /** A one-line field of the form: its label, its input, and its error once touched (or after a save). */
  const textField = (
    field: 'nameEn' | 'phone' | 'email',
    { required, ...input }: { required?: boolean } & InputHTMLAttributes<HTMLInputElement>,
  ) => (
    <Field label={t(`client.edit.${field}`)} error={shown(field)} htmlFor={`edit-${field}`} required={required}>
      <input
        id={`edit-${field}`}
        className="ba-form-input ba-field__input"
        {...input}
        value={values[field]}
        onChange={(event) => set(field, event.target.value)}
        onBlur={blur(field)}
      />
    </Field>
  );

  const save = useMutation({
    mutationFn: () => request(endpoints.updateProfile, updatePayload(record.customerId, edit.version, started, values), { silent: true }),
    onSuccess: (saved) => {
      kept.saved();
      queryClient.setQueryData(baseInfoQuery(saved.customerId).queryKey, saved);
      // The header shows the new name and tags at once; the refetch below brings the rest (masked phone).
      queryClient.setQueryData(
        profileQuery(saved.customerId).queryKey,
        (profile) =>
          profile && { ...profile, nameEn: saved.nameEn, tags: saved.tags, phoneMasked: saved.phoneMasked, version: saved.version },
      );
      for (const key of clientKeys(saved.customerId)) void queryClient.invalidateQueries({ queryKey: key });
      void queryClient.invalidateQueries({ queryKey: ['customer', 'list'] });
      showToast(t('client.edit.saved'));
      if (historyIndex() > 0) navigate(-1);
      else navigate(withCustomer(CLIENT_PATHS.profile, saved.customerId), { replace: true });
    },
    onError: (error) => {
      if (!kept.failed(error, { ...edit, newTag })) return;
      if (error instanceof ApiError && error.code === ErrorCode.CONFLICT) {
        latest.mutate();
        return;
      }
      showToast(error.message);
    },
  });

  /** Moves the edit onto `latest`, each field both changed as chosen; says which fields now read as saved meanwhile. */
  const applyMerge = (latestInfo: CustomerBaseInfo, choices: Partial<Record<ProfileField, MergeChoice>>) => {
    setTaken(profileMerge(edit, latestInfo).taken);
    setEdit(mergedProfile(edit, latestInfo, choices));
    setMerge(null);
    hide();
  };

  // A save refused as stale: the profile as saved now, met field by field.
  const latest = useMutation({
    mutationFn: () => queryClient.fetchQuery({ ...baseInfoQuery(record.customerId), staleTime: 0 }),
    onSuccess: (latestInfo) => {
      setRecord(latestInfo);
      if (profileMerge(edit, latestInfo).clashes.length === 0) applyMerge(latestInfo, {});
      else setMerge(latestInfo);
    },
    onError: (error) => showToast(error.message),
  });

  const addTag = () => {
    const tag = newTag.trim();
    if (!tag || newTagProblem) return;
    set('tags', [...values.tags, tag]);
    setNewTag('');
  };

  const submit = () => {
    setSubmitted(true);
    setTaken(null);
    const firstInvalid = FIELD_ORDER.find((field) => errors[field]);
    if (firstInvalid) {
      // The message sits under the field.
      focusField(document.getElementById(`edit-${firstInvalid === 'tags' ? 'tag' : firstInvalid}`));
      return;
    }
    if (Object.keys(changedFields(started, values)).length === 0) {
      showToast(t('client.edit.unchanged'));
      return;
    }
    kept.submitting({ ...edit, newTag });
    save.mutate();
  };

  const standing = merge && profileMerge(edit, merge);

  return (
    <PageFrame
      className="ba-edit"
      footer={
        <footer className="ba-footer-bar ba-footer-bar--form">
          <Button
            block
            color="primary"
            loading={save.isPending || latest.isPending}
            disabled={merge !== null}
            onClick={submit}
            data-testid="edit-save"
          >
            {t('client.edit.save')}
          </Button>
        </footer>
      }
    >
      {merge && standing && (
        <EditConflict
          merge={standing}
          label={label}
          theirs={(field) => savedText(field, merge)}
          mine={(field) => inWords(values[field])}
          canKeepBoth={keepsBoth}
          onApply={(choices) => applyMerge(merge, choices)}
        />
      )}
      {!merge &&
        notice(() => {
          setEdit(freshEdit(record));
          setNewTag('');
        })}
      {taken && <MergedNotice taken={taken.map(label)} />}
      <section className="ba-surface ba-edit__readonly">
        <p className="ba-edit__who">
          <b>{record.nameCn}</b> · {record.customerNo} · {record.idDocMasked}
        </p>
        <p className="ba-caption ba-form-hint">{t('client.edit.readonlyHint')}</p>
      </section>
      <section className="ba-surface ba-form">
        {textField('nameEn', { required: true, autoComplete: 'off' })}
        {/* The number on file stays masked (ADR 0039): empty keeps it, a new one replaces it. */}
        {textField('phone', {
          type: 'tel',
          inputMode: 'tel',
          placeholder: record.phoneMasked
            ? t('client.edit.phoneKeepPlaceholder', { phone: record.phoneMasked })
            : t('client.edit.phonePlaceholder'),
        })}
        {textField('email', { type: 'email', inputMode: 'email', placeholder: t('client.edit.emailPlaceholder') })}
        <Field
          label={t('client.edit.tags')}
          error={shown('tags') ?? (newTagProblem ? t(newTagProblem.key, { max: newTagProblem.max }) : undefined)}
          htmlFor="edit-tag"
        >
          {values.tags.length > 0 && (
            <div className="ba-wrap ba-edit__tags" data-testid="edit-tags">
              {values.tags.map((tag) => (
                <span className="ba-edit__tag" key={tag}>
                  {tag}
                  <button
                    type="button"
                    aria-label={t('client.edit.removeTag', { tag })}
                    onClick={() =>
                      set(
                        'tags',
                        values.tags.filter((item) => item !== tag),
                      )
                    }
                  >
                    <CloseOutline />
                  </button>
                </span>
              ))}
            </div>
          )}
          <div className="ba-row ba-edit__tag-add">
            <input
              id="edit-tag"
              className="ba-form-input ba-field__input"
              placeholder={t('client.edit.tagPlaceholder')}
              value={newTag}
              onChange={(event) => setNewTag(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter') {
                  event.preventDefault();
                  addTag();
                }
              }}
            />
            <Button size="small" fill="outline" color="primary" disabled={!newTag.trim() || Boolean(newTagProblem)} onClick={addTag}>
              {t('client.edit.addTag')}
            </Button>
          </div>
        </Field>
        <Field label={t('client.edit.remark')} error={shown('remark')} htmlFor="edit-remark">
          <textarea
            id="edit-remark"
            className="ba-form-input ba-field__input ba-field__textarea"
            rows={4}
            placeholder={t('client.edit.remarkPlaceholder')}
            value={values.remark}
            onChange={(event) => set('remark', event.target.value)}
            onBlur={blur('remark')}
          />
          <span className="ba-small-caption ba-field__count">
            {values.remark.trim().length}/{REMARK_MAX}
          </span>
        </Field>
      </section>
    </PageFrame>
  );
}

/** Edit contact details, tags and remark; inline errors, conflicts explained with the input kept. */
export default function ClientEditPage() {
  const customerId = useCustomerId();
  const info = useQuery({ ...baseInfoQuery(customerId ?? 0), enabled: customerId !== null, staleTime: 0 });
  if (!customerId)
    return (
      <PageFrame>
        <NoCustomer />
      </PageFrame>
    );
  if (info.isPending)
    return (
      <PageFrame>
        <LoadingState rows={2} />
      </PageFrame>
    );
  if (info.isError)
    return (
      <PageFrame>
        <ClientErrorState error={info.error} onRetry={() => void info.refetch()} />
        <UnreachableDrafts draftKey={editDraftKey(customerId)} accept={isEditDraft} describe={describeEdit} />
      </PageFrame>
    );
  return (
    <DraftChoice key={customerId} page draftKey={editDraftKey(customerId)} accept={isEditDraft} describe={describeEdit}>
      <EditForm info={info.data} />
    </DraftChoice>
  );
}
