import { useEffect, useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from '../../shared/i18n/use-translation';
import type { KycBinding, KycCandidate } from '@broker/contract';
import { clientName } from '@broker/domain';
import Button from 'antd-mobile/es/components/button';
import DotLoading from 'antd-mobile/es/components/dot-loading';
import SearchBar from 'antd-mobile/es/components/search-bar';
import Tag from 'antd-mobile/es/components/tag';
import { PageFrame } from '../../shared/ui/page-frame';
import { EmptyState, ErrorState, LoadingState } from '../../shared/ui/states';
import { LoadFailedState } from '../../shared/ui/load-failed-state';
import { bindContact, currentContactQuery, kycSearchQuery, kycStatusQuery, SEARCH_PAGE_SIZE, unbindContact } from './kyc-api';
import { kycErrorMessage } from './kyc-errors';
import { KycErrorContent } from './kyc-error-content';
import { announceBind, announceUnbind, profileTarget } from './kyc-transitions';
import './locales';
import { useDraft } from '../../shared/drafts/use-draft';
import { useDraftNotice } from '../../shared/drafts/draft-notice';
import { DraftChoice } from '../../shared/drafts/draft-choice';
import { useDebouncedValue } from '../../shared/ui/use-debounced-value';
import './kyc.css';
import { formatDateTime } from '../../shared/format/date-format';
import { isObject, isText } from '../../shared/drafts/page-state';
import { Fact } from '../../shared/ui/fact';

const SEARCH_DEBOUNCE_MS = 300;

const loadDialog = () => import('../../shared/ui/antd-dialog').then((module) => module.default);
const loadToast = () => import('../../shared/ui/antd-toast').then((module) => module.default);

/** KYC: the chat contact of the sidebar, bound to one of my customers or searched and bound here. */
export default function KycIndexPage() {
  const { t } = useTranslation();
  const contact = useQuery(currentContactQuery());
  let body;
  if (contact.isPending) body = <LoadingState rows={2} />;
  else if (contact.isError)
    body = (
      <ErrorState
        title={t('kyc.wecomFailed.title')}
        description={<KycErrorContent error={contact.error} t={t} />}
        onRetry={() => void contact.refetch()}
      />
    );
  else if (contact.data === null)
    body = (
      <div className="ba-surface ba-panel">
        <EmptyState title={t('kyc.notInChat.title')} description={t('kyc.notInChat.description')} />
      </div>
    );
  else body = <ContactBinding externalUserId={contact.data} />;
  return (
    <PageFrame className="ba-kyc">
      <div data-testid="kyc-page">{body}</div>
    </PageFrame>
  );
}

function ContactBinding({ externalUserId }: { externalUserId: string }) {
  const { t } = useTranslation();
  const status = useQuery(kycStatusQuery(externalUserId));
  if (status.isPending) return <LoadingState rows={2} />;
  if (status.isError)
    return (
      <LoadFailedState
        error={status.error}
        subject="client"
        description={kycErrorMessage(status.error, t)}
        onRetry={() => void status.refetch()}
      />
    );
  const { bound, ownCustomer, binding, contact } = status.data;
  const name = contact?.name || t('kyc.contact.unknownName');
  const state = !bound ? 'unbound' : !ownCustomer ? 'boundElsewhere' : binding?.stale ? 'stale' : 'bound';
  return (
    <>
      <section className="ba-surface ba-row ba-kyc__contact" data-testid="kyc-contact">
        <div className="ba-avatar ba-kyc__avatar" aria-hidden>
          {name.slice(0, 1)}
        </div>
        <div className="ba-grow">
          <p className="ba-caption ba-kyc__label">{t('kyc.contact.heading')}</p>
          <h2 className="ba-kyc__contact-name ba-ellipsis">{name}</h2>
        </div>
        <Tag
          className="ba-kyc__state"
          color={state === 'bound' ? 'success' : state === 'unbound' ? 'default' : 'warning'}
          fill="outline"
          data-testid="kyc-state"
        >
          {t(`kyc.contact.${state}`)}
        </Tag>
      </section>
      {/* A stale binding says why itself: the contact stopped following because of that deletion. */}
      {contact && !contact.followedByYou && !binding?.stale && (
        <p className="ba-kyc__warning" role="alert">
          {t('kyc.contact.notYours')}
        </p>
      )}
      {bound && ownCustomer && binding && <BoundCustomer externalUserId={externalUserId} contactName={name} binding={binding} />}
      {bound && !ownCustomer && (
        <div className="ba-surface ba-panel">
          <EmptyState title={t('kyc.elsewhere.title')} description={t('kyc.elsewhere.description')} />
        </div>
      )}
      {!bound && (
        <DraftChoice draftKey={bindDraftKey(externalUserId)} accept={isBindDraft} describe={(draft) => draft.keyword}>
          <CandidateSearch externalUserId={externalUserId} contactName={name} />
        </DraftChoice>
      )}
    </>
  );
}

function BoundCustomer({ externalUserId, contactName, binding }: { externalUserId: string; contactName: string; binding: KycBinding }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);

  const unbind = async () => {
    const Dialog = await loadDialog();
    const confirmed = await Dialog.confirm({
      title: t('kyc.confirmUnbind.title'),
      content: t('kyc.confirmUnbind.content', { contact: contactName, customer: binding.customerName }),
      confirmText: <span className="ba-kyc__danger-text">{t('kyc.confirmUnbind.confirm')}</span>,
      cancelText: t('nav.cancel'),
    });
    if (!confirmed) return;
    setBusy(true);
    try {
      await unbindContact(externalUserId);
      announceUnbind(binding.customerId);
      void (await loadToast()).show({ icon: 'success', content: t('kyc.unbindDone') });
    } catch (error) {
      await Dialog.alert({ content: kycErrorMessage(error, t), confirmText: t('kyc.wecomFailed.ok') });
    } finally {
      setBusy(false);
      await queryClient.invalidateQueries({ queryKey: ['kyc'] });
    }
  };

  return (
    <section className="ba-surface ba-kyc__card" data-testid="kyc-bound">
      <h3 className="ba-kyc__card-title">{t('kyc.bound.heading')}</h3>
      {binding.stale && (
        <p className="ba-kyc__warning ba-kyc__warning--in-card" role="alert" data-testid="kyc-stale">
          {t(`kyc.stale.${binding.stale.reason}`, { at: formatDateTime(binding.stale.at) })}
        </p>
      )}
      <p className="ba-kyc__customer-name">
        {binding.customerName}
        {binding.customerNameEn && binding.customerNameEn !== binding.customerName && <small> {binding.customerNameEn}</small>}
      </p>
      <dl className="ba-kyc__facts">
        <Fact label={t('kyc.bound.customerNo')}>{binding.customerNo}</Fact>
        {binding.phone && <Fact label={t('kyc.bound.phone')}>{binding.phone}</Fact>}
        <Fact label={t('kyc.bound.boundAt')}>{formatDateTime(binding.boundAt)}</Fact>
      </dl>
      <div className="ba-row ba-kyc__actions">
        <Button color="primary" fill="solid" onClick={() => void navigate(profileTarget(params.get('redirectPage'), binding.customerId))}>
          {t('kyc.bound.viewProfile')}
        </Button>
        <Button color="danger" fill="outline" loading={busy} onClick={() => void unbind()}>
          {t('kyc.bound.unbind')}
        </Button>
      </div>
    </section>
  );
}

/** An unfinished bind for this chat contact (ADR 0013): the search typed, and the customer being bound. */
interface BindDraft {
  keyword: string;
  customerId: number | null;
}
const isBindDraft = (data: unknown): data is BindDraft => {
  const draft = data as Partial<BindDraft> | null;
  return isObject(draft) && isText(draft.keyword, 100) && (draft.customerId === null || Number.isSafeInteger(draft.customerId));
};
const nothingToBind = (draft: BindDraft) => !draft.keyword.trim() && draft.customerId === null;
const bindDraftKey = (externalUserId: string) => `kycBind:${externalUserId}`;

function CandidateSearch({ externalUserId, contactName }: { externalUserId: string; contactName: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const kept = useDraft(bindDraftKey(externalUserId), isBindDraft, nothingToBind);
  const { restored, notice } = useDraftNotice(kept, kept.restored);
  const [keyword, setKeyword] = useState(restored?.data.keyword ?? '');
  const [binding, setBinding] = useState<number | null>(null);

  useEffect(() => kept.keep({ keyword, customerId: null }), [kept, keyword]);
  const debounced = useDebouncedValue(keyword.trim(), SEARCH_DEBOUNCE_MS);
  const results = useQuery({ ...kycSearchQuery(debounced), enabled: debounced.length > 0, placeholderData: keepPreviousData });

  const bind = async (candidate: KycCandidate) => {
    const Dialog = await loadDialog();
    const customer = clientName(candidate);
    const confirmed = await Dialog.confirm({
      title: t('kyc.confirmBind.title'),
      content: t('kyc.confirmBind.content', { contact: contactName, customer, customerNo: candidate.customerNo }),
      confirmText: t('kyc.confirmBind.confirm'),
      cancelText: t('nav.cancel'),
    });
    if (!confirmed) return;
    setBinding(candidate.customerId);
    kept.submitting({ keyword, customerId: candidate.customerId });
    try {
      const result = await bindContact(externalUserId, candidate.customerId);
      kept.saved();
      announceBind(result.customerId);
      void queryClient.invalidateQueries({ queryKey: ['kyc'] });
      void (await loadToast()).show({ icon: 'success', content: t('kyc.bindDone') });
      navigate(profileTarget(params.get('redirectPage'), result.customerId));
    } catch (error) {
      // A session expiry: the sign-in brings the user back here with the search and this bind to confirm again.
      if (!kept.failed(error, { keyword, customerId: null })) return;
      setBinding(null);
      void queryClient.invalidateQueries({ queryKey: ['kyc'] });
      await Dialog.alert({ content: kycErrorMessage(error, t), confirmText: t('kyc.wecomFailed.ok') });
    }
  };

  let list;
  if (!debounced) list = <p className="ba-kyc__hint">{t('kyc.search.prompt')}</p>;
  else if (results.isPending)
    list = (
      <div className="ba-kyc__hint">
        <DotLoading color="primary" />
      </div>
    );
  else if (results.isError)
    list = (
      <LoadFailedState
        error={results.error}
        subject="content"
        description={kycErrorMessage(results.error, t)}
        onRetry={() => void results.refetch()}
      />
    );
  else if (results.data.list.length === 0) list = <EmptyState title={t('kyc.search.empty')} />;
  else
    list = (
      <>
        <p className="ba-caption ba-kyc__count">
          {results.data.hasMore ? t('kyc.search.more', { count: SEARCH_PAGE_SIZE }) : t('kyc.search.total', { count: results.data.total })}
        </p>
        <ul className="ba-plain-list" data-testid="kyc-results" aria-busy={results.isFetching}>
          {results.data.list.map((candidate) => (
            <CandidateItem
              key={candidate.customerId}
              candidate={candidate}
              busy={binding === candidate.customerId}
              disabled={binding !== null}
              interrupted={restored?.submitting === true && restored.data.customerId === candidate.customerId}
              onBind={() => void bind(candidate)}
            />
          ))}
        </ul>
      </>
    );

  return (
    <section className="ba-surface ba-kyc__search-section" data-testid="kyc-search">
      <div className="ba-kyc__search-head">
        <h3 className="ba-kyc__card-title">{t('kyc.search.heading')}</h3>
        <p className="ba-caption ba-kyc__label">{t('kyc.search.hint')}</p>
      </div>
      {notice(() => setKeyword(''))}
      <div className="ba-search-box ba-kyc__search">
        <SearchBar placeholder={t('kyc.search.placeholder')} value={keyword} onChange={setKeyword} onClear={() => setKeyword('')} />
      </div>
      {list}
    </section>
  );
}

function CandidateItem({
  candidate,
  busy,
  disabled,
  interrupted,
  onBind,
}: {
  candidate: KycCandidate;
  busy: boolean;
  disabled: boolean;
  /** The bind the session expiry interrupted: its button stands out, to be confirmed again. */
  interrupted: boolean;
  onBind: () => void;
}) {
  const { t } = useTranslation();
  const taken = candidate.boundExternalUserId !== null;
  const otherName = candidate.nameCn && candidate.nameEn ? candidate.nameEn : '';
  return (
    <li className="ba-kyc__candidate" data-testid="kyc-candidate" data-customer-id={candidate.customerId}>
      <div className="ba-grow">
        <p className="ba-kyc__candidate-name">
          {clientName(candidate)}
          {otherName && <span className="ba-kyc__candidate-alt">{otherName}</span>}
        </p>
        <p className="ba-caption ba-kyc__candidate-no">
          {candidate.customerNo}
          {candidate.status !== 'active' && (
            <span
              className={candidate.status === 'closed' ? 'ba-tag ba-kyc__candidate-status ba-tone--red' : 'ba-tag ba-kyc__candidate-status'}
            >
              {t(`kyc.status.${candidate.status}`, { defaultValue: candidate.status })}
            </span>
          )}
        </p>
        <dl className="ba-kyc__candidate-facts">
          <Fact label={t('kyc.candidate.phone')}>{candidate.phone ?? t('kyc.candidate.noPhone')}</Fact>
          <Fact label={t('kyc.candidate.idDoc')}>{candidate.idDoc}</Fact>
          {candidate.accountNos.length > 0 && <Fact label={t('kyc.candidate.accounts')}>{candidate.accountNos.join('、')}</Fact>}
        </dl>
      </div>
      <div className="ba-kyc__candidate-action">
        {taken ? (
          <Tag color="default" fill="outline" className="ba-kyc__taken">
            {t('kyc.candidate.alreadyBound')}
          </Tag>
        ) : (
          <Button
            size="small"
            color="primary"
            fill={interrupted ? 'solid' : 'outline'}
            loading={busy}
            disabled={disabled && !busy}
            onClick={onBind}
            data-testid={interrupted ? 'kyc-bind-interrupted' : undefined}
          >
            {t('kyc.candidate.bind')}
          </Button>
        )}
      </div>
    </li>
  );
}
