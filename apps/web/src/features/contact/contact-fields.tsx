import type { ReactNode } from 'react';
import { CONTACT_CHANNELS, CONTACT_PURPOSES, type ContactPurpose } from '@broker/contract';
import { hongKongDay } from '@broker/domain';
import { useTranslation } from '../../shared/i18n/use-translation';
import { RadioButtons } from '../../shared/ui/radio-buttons';
import { focusField } from '../../shared/ui/focus-field';
import { FIELD_MAX, FIELD_ORDER, showsSuitability, type ContactField, type ContactFormValues, type FieldErrors } from './contact-form';
import { channelIcon } from './contact-parts';

/** The id of a field's input: the form brings the first one in error into view by it. */
export const fieldId = (field: ContactField) => `contact-${field}`;

/** Brings the first field in error into view, rather than toasting over the form. */
export function focusFirstError(errors: Partial<Record<ContactField, unknown>>) {
  const first = FIELD_ORDER.find((field) => errors[field]);
  if (!first) return false;
  focusField(document.getElementById(fieldId(first)) ?? document.querySelector(`[data-field="${first}"]`));
  return true;
}

/** A labelled form row: its error, hint and a counter that turns red past the field's limit. */
export function Field({
  field,
  label,
  required,
  hint,
  error,
  children,
  count,
}: {
  field: ContactField;
  label: string;
  required?: boolean;
  hint?: string;
  error?: string;
  children: ReactNode;
  /** Characters typed, shown against the field's limit. */
  count?: number;
}) {
  const max = count === undefined ? undefined : FIELD_MAX[field as keyof typeof FIELD_MAX];
  return (
    <div className={error ? 'ba-form-row ba-form-row--error' : 'ba-form-row'} data-field={field}>
      <div className="ba-cfield__head">
        <label className="ba-cfield__label" htmlFor={fieldId(field)}>
          {label}
          {required && <span className="ba-form-required">*</span>}
        </label>
        {max !== undefined && (
          <span className={count! > max ? 'ba-small-caption ba-cfield__count--over' : 'ba-small-caption'}>
            {count}/{max}
          </span>
        )}
      </div>
      {children}
      {hint && !error && <p className="ba-caption ba-form-hint">{hint}</p>}
      {error && (
        <p className="ba-form-error ba-cfield__error" role="alert" data-testid={`contact-error-${field}`}>
          {error}
        </p>
      )}
    </div>
  );
}

export interface ContactFieldsProps {
  values: ContactFormValues;
  onChange: (values: ContactFormValues) => void;
  /** Errors shown (after a save was tried, or a field was left). */
  errors: FieldErrors;
  onBlur?: (field: ContactField) => void;
  /** What follows the fields: the events to link (the log form), the reason (a correction). */
  children?: ReactNode;
  /** Why the server refused the last save, shown above the fields; null or absent: nothing refused. */
  refusal?: string | null;
}

/** The fields a manager writes, for logging, editing and correcting alike (suitability asked for with a recommendation). */
export function ContactFields({ values, onChange, errors, onBlur, children, refusal }: ContactFieldsProps) {
  const { t } = useTranslation();
  const set = <K extends keyof ContactFormValues>(field: K, value: ContactFormValues[K]) => onChange({ ...values, [field]: value });
  const message = (field: ContactField) => {
    const error = errors[field];
    return error ? t(`contact.error.${error.key}`, { max: error.max }) : undefined;
  };
  const blur = (field: ContactField) => () => onBlur?.(field);
  /** A text, date or time input's binding to its field: its id, its value, and what typing and leaving it do. */
  const bound = (field: 'servedDay' | 'servedTime' | 'note' | 'outcome' | 'suitability' | 'nextStep' | 'nextStepDate') => ({
    id: fieldId(field),
    value: values[field],
    onChange: (event: { target: { value: string } }) => set(field, event.target.value),
    onBlur: blur(field),
  });
  const today = hongKongDay();

  return (
    <>
      {refusal && (
        <p className="ba-contact-notice ba-tone--red" role="alert" data-testid="contact-refusal">
          {refusal}
        </p>
      )}
      <div className="ba-surface ba-form">
        <Field field="channel" label={t('contact.form.channel')} required>
          <RadioButtons
            label={t('contact.form.channel')}
            options={CONTACT_CHANNELS}
            value={values.channel}
            onChange={(channel) => set('channel', channel)}
            render={(channel) => (
              <>
                <span className="ba-tiles__icon">{channelIcon(channel)}</span>
                {t(`contact.channel.${channel}`)}
              </>
            )}
            className="ba-tiles ba-cchannels"
            itemClassName="ba-tiles__item"
            testId="contact-channel"
          />
        </Field>
        <Field field="purpose" label={t('contact.form.purpose')} required>
          <RadioButtons<ContactPurpose>
            label={t('contact.form.purpose')}
            options={CONTACT_PURPOSES}
            value={values.purpose}
            onChange={(purpose) => set('purpose', purpose)}
            render={(purpose) => t(`contact.purpose.${purpose}`)}
            className="ba-choice-chips ba-cchips"
            itemClassName="ba-choice-chip"
            testId="contact-purpose"
          />
        </Field>
        <Field field="servedDay" label={t('contact.form.when')} required error={message('servedDay') ?? message('servedTime')}>
          <div className="ba-cwhen">
            <input {...bound('servedDay')} className="ba-form-input ba-cinput" type="date" aria-label={t('contact.form.day')} max={today} />
            <input
              {...bound('servedTime')}
              className="ba-form-input ba-cinput ba-cinput--time"
              type="time"
              aria-label={t('contact.form.time')}
            />
          </div>
        </Field>
        <Field field="note" label={t('contact.form.note')} required error={message('note')} count={values.note.trim().length}>
          <textarea
            {...bound('note')}
            className="ba-form-input ba-cinput ba-cinput--area"
            rows={5}
            placeholder={t('contact.form.notePlaceholder')}
          />
        </Field>
        <Field field="outcome" label={t('contact.form.outcome')} error={message('outcome')} count={values.outcome.trim().length}>
          <input {...bound('outcome')} className="ba-form-input ba-cinput" placeholder={t('contact.form.outcomePlaceholder')} />
        </Field>
        {showsSuitability(values) && (
          <Field
            field="suitability"
            label={t('contact.form.suitability')}
            required={values.purpose === 'recommendation'}
            hint={t('contact.form.suitabilityHint')}
            error={message('suitability')}
            count={values.suitability.trim().length}
          >
            <textarea
              {...bound('suitability')}
              className="ba-form-input ba-cinput ba-cinput--area"
              rows={4}
              placeholder={t('contact.form.suitabilityPlaceholder')}
            />
          </Field>
        )}
        <Field
          field="nextStep"
          label={t('contact.form.nextStep')}
          error={message('nextStep') ?? message('nextStepDate')}
          hint={values.nextStepDate ? t('contact.form.nextStepDateHint') : undefined}
          count={values.nextStep.trim().length}
        >
          <input {...bound('nextStep')} className="ba-form-input ba-cinput" placeholder={t('contact.form.nextStepPlaceholder')} />
          <div className="ba-row ba-cnext">
            <label className="ba-cnext__label" htmlFor={fieldId('nextStepDate')}>
              {t('contact.form.nextStepDate')}
            </label>
            <input {...bound('nextStepDate')} className="ba-form-input ba-cinput ba-grow" type="date" min={values.servedDay || today} />
            {values.nextStepDate && (
              <button type="button" className="ba-bare ba-cnext__clear" onClick={() => set('nextStepDate', '')}>
                {t('contact.form.clearDate')}
              </button>
            )}
          </div>
        </Field>
        {children}
      </div>
    </>
  );
}
