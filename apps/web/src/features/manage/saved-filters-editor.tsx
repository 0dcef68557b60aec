import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { MAX_SAVED_FILTERS } from '../../shared/api/contract';
import { ApiError } from '../../shared/api/api-error';
import { useTranslation } from '../../shared/i18n/use-translation';
import { toSavedFilters, type ClientFilters } from './client-filters';
import { shortcutsQuery } from './manage-queries';
import { useDeleteFilter, useSaveFilter } from './shortcuts-mutations';
import './shortcuts-locales';
import './shortcuts.css';

/** The longest name the contract takes (savedFilterNameSchema). */
const NAME_MAX = 20;

/** Save the page's filters under a name, rename or delete saved ones (ADR 0049); a refusal stays on screen with what was typed. */
export function SavedFiltersEditor({ current, valid }: { current: ClientFilters; valid: boolean }) {
  const { t } = useTranslation();
  const shortcuts = useQuery(shortcutsQuery());
  const save = useSaveFilter();
  const remove = useDeleteFilter();
  const [name, setName] = useState('');
  const [editing, setEditing] = useState<{ filterId: number; name: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const saved = shortcuts.data?.savedFilters ?? [];
  const full = saved.length >= MAX_SAVED_FILTERS;

  const onError = (error: Error) => setProblem(error instanceof ApiError ? error.message : t('manage.saved.failed'));
  const submitNew = () => {
    const trimmed = name.trim();
    if (!trimmed) return setProblem(t('manage.saved.nameRequired'));
    if (saved.some((filter) => filter.name === trimmed)) return setProblem(t('manage.saved.nameTaken', { name: trimmed }));
    setProblem(null);
    save.mutate({ name: trimmed, filters: toSavedFilters(current) }, { onSuccess: () => setName(''), onError });
  };
  const submitRename = () => {
    if (!editing) return;
    const trimmed = editing.name.trim();
    if (!trimmed) return setProblem(t('manage.saved.nameRequired'));
    if (saved.some((filter) => filter.name === trimmed && filter.filterId !== editing.filterId))
      return setProblem(t('manage.saved.nameTaken', { name: trimmed }));
    setProblem(null);
    save.mutate({ filterId: editing.filterId, name: trimmed }, { onSuccess: () => setEditing(null), onError });
  };

  return (
    <div className="ba-saved-edit" data-testid="saved-filters-editor">
      {saved.length > 0 && (
        <ul className="ba-plain-list ba-saved-edit__list">
          {saved.map((filter) =>
            editing?.filterId === filter.filterId ? (
              <li key={filter.filterId} className="ba-row ba-saved-edit__item">
                <input
                  className="ba-grow ba-filter__input ba-saved-edit__input"
                  aria-label={t('manage.saved.rename')}
                  maxLength={NAME_MAX}
                  value={editing.name}
                  autoFocus
                  onChange={(event) => setEditing({ ...editing, name: event.target.value })}
                />
                <button type="button" className="ba-saved-edit__button" onClick={submitRename} disabled={save.isPending}>
                  {t('manage.saved.ok')}
                </button>
                <button type="button" className="ba-saved-edit__button ba-saved-edit__button--weak" onClick={() => setEditing(null)}>
                  {t('nav.cancel')}
                </button>
              </li>
            ) : (
              <li key={filter.filterId} className="ba-row ba-saved-edit__item" data-testid="saved-filter-item">
                <span className="ba-grow ba-saved-edit__name ba-ellipsis">{filter.name}</span>
                <button
                  type="button"
                  className="ba-saved-edit__button"
                  onClick={() => {
                    setProblem(null);
                    setEditing({ filterId: filter.filterId, name: filter.name });
                  }}
                  aria-label={t('manage.saved.renameNamed', { name: filter.name })}
                >
                  {t('manage.saved.rename')}
                </button>
                <button
                  type="button"
                  className="ba-saved-edit__button ba-saved-edit__button--danger"
                  onClick={() => remove.mutate(filter.filterId)}
                  disabled={remove.isPending}
                  aria-label={t('manage.saved.deleteNamed', { name: filter.name })}
                >
                  {t('manage.saved.delete')}
                </button>
              </li>
            ),
          )}
        </ul>
      )}
      {full ? (
        <p className="ba-saved-edit__note">{t('manage.saved.full', { max: MAX_SAVED_FILTERS })}</p>
      ) : (
        <div className="ba-row ba-saved-edit__item">
          <input
            className="ba-grow ba-filter__input ba-saved-edit__input"
            placeholder={t('manage.saved.namePlaceholder')}
            aria-label={t('manage.saved.namePlaceholder')}
            maxLength={NAME_MAX}
            value={name}
            onChange={(event) => setName(event.target.value)}
            data-testid="saved-filter-name"
          />
          <button
            type="button"
            className="ba-saved-edit__button ba-saved-edit__button--primary"
            onClick={submitNew}
            disabled={!valid || save.isPending}
            data-testid="saved-filter-save"
          >
            {t('manage.saved.save')}
          </button>
        </div>
      )}
      {problem && (
        <p className="ba-filter__error" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
