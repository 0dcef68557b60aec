import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import Popup from 'antd-mobile/es/components/popup';
import Button from 'antd-mobile/es/components/button';
import MessageOutline from 'antd-mobile-icons/es/MessageOutline';
import PhoneFill from 'antd-mobile-icons/es/PhoneFill';
import SendOutline from 'antd-mobile-icons/es/SendOutline';
import LinkOutline from 'antd-mobile-icons/es/LinkOutline';
import type { CustomerReach } from '@broker/contract';
import { clientName } from '@broker/domain';
import { useTranslation } from '../../shared/i18n/use-translation';
import type { TFunction } from '../../shared/i18n/translator';
import { currentLanguage, LANGUAGES, type Language } from '../../shared/i18n/i18n';
import { useAppSettings } from '../../shared/session/app-settings-store';
import { showToast } from '../../shared/api/toast';
import { SheetHead } from '../../shared/ui/sheet';
import { RadioButtons } from '../../shared/ui/radio-buttons';
import { dial, isCancelled, openChatWith, sendToCurrentChat, WeComError } from '../../shared/wecom/wecom-sdk';
import { currentChatContactQuery, reachQuery, revealPhone } from './reach-api';
import { contactFormPath } from '../contact';
import { MESSAGE_TEMPLATES, cardTarget, composeMessage, type MessageKind, type MessageTemplate } from './message-templates';
import './reach-locales';
import './reach.css';

/** Where the KYC page sends the manager back to once a contact is bound. */
const kycBindTarget = (customerId: number) =>
  `/kyc/index?${new URLSearchParams({ redirectPage: `/client/information?customerId=${customerId}` }).toString()}`;

/** A refusal by WeCom, worded for the manager: WeCom's own errMsg where it says something useful. */
function wecomFailure(error: unknown, t: TFunction, what: 'chat' | 'send'): string {
  if (error instanceof WeComError && (error.step === 'bridge' || error.step === 'register')) return t(`reach.failed.${error.step}`);
  const detail = error instanceof WeComError ? error.detail : String(error);
  return t(`reach.failed.${what}`, { detail });
}

/** After a contact, the offer to log it (ADR 0038), prefilled; "Later" leaves the page as it is. */
async function offerToLog(
  contact: { customerId: number; channel: 'phone' | 'wecom'; at: number; eventId?: number | undefined; name: string },
  t: TFunction,
  navigate: (to: string) => void,
) {
  const { default: Dialog } = await import('../../shared/ui/antd-dialog');
  const confirmed = await Dialog.confirm({
    title: t('reach.log.title'),
    content: t(`reach.log.${contact.channel}`, { name: contact.name }),
    confirmText: t('reach.log.confirm'),
    cancelText: t('reach.log.later'),
  });
  if (confirmed) navigate(contactFormPath(contact));
}

/** The customer of the sidebar's chat (single chat toolbar only); asked again when shown, as desktop WeCom reuses one sidebar. */
function useCurrentChatContact(): string | null {
  const inChat = useAppSettings((settings) => settings.entry) === 'single_chat_tools';
  // Shown again (visibilitychange), it is asked again however fresh the last answer.
  const contact = useQuery({ ...currentChatContactQuery(), enabled: inChat, refetchOnWindowFocus: 'always' });
  return inChat ? (contact.data ?? null) : null;
}

export interface ReachActionsProps {
  customerId: number;
  /** From an MOT event: the log form links the contact to it. */
  eventId?: number | undefined;
  /** `row`: buttons side by side (profile header, event card); `list`: one per line (the list row's sheet). */
  layout?: 'row' | 'list';
  /** After an action that leaves for WeCom or the dialler (the sheet closes). */
  onActed?: () => void;
}

/** One tap to reach a client (ADR 0039): chat in WeCom (or bind), an audited call, a greeting in their chat; each offers a log. */
export function ReachActions({ customerId, eventId, layout = 'row', onActed }: ReachActionsProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const reach = useQuery(reachQuery(customerId));
  const currentContact = useCurrentChatContact();
  const [revealed, setRevealed] = useState<string | null>(null);
  const [busy, setBusy] = useState<'chat' | 'call' | 'reveal' | null>(null);
  const [templatesOpen, setTemplatesOpen] = useState(false);

  if (!reach.data) return <div className={`ba-reach ba-reach--${layout} ba-reach--loading`} data-testid="reach-actions" aria-busy />;
  const data = reach.data;
  const name = clientName(data);
  const wecom = data.wecom;
  const inThisChat = wecom !== null && currentContact === wecom.externalUserId;
  const go = (to: string) => void navigate(to);

  const chat = async () => {
    if (!wecom) return;
    setBusy('chat');
    try {
      await openChatWith(wecom.externalUserId);
      onActed?.();
      await offerToLog({ customerId, channel: 'wecom', at: Date.now(), eventId, name }, t, go);
    } catch (error) {
      if (!isCancelled(error)) showToast(wecomFailure(error, t, 'chat'));
    } finally {
      setBusy(null);
    }
  };

  /** The full number, audited: to see it, or to dial it and then offer the log. */
  const reveal = async (purpose: 'view' | 'call') => {
    setBusy(purpose === 'call' ? 'call' : 'reveal');
    try {
      const answer = await revealPhone(customerId, purpose);
      if (purpose === 'call' && !answer.dial) return;
      setRevealed(answer.phone);
      if (!answer.dial || purpose === 'view') return;
      const at = Date.now();
      dial(answer.dial);
      onActed?.();
      await offerToLog({ customerId, channel: 'phone', at, eventId, name }, t, go);
    } catch {
      // The request layer has said why (a refusal toasts, e.g. too many reveals).
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className={`ba-reach ba-reach--${layout}`} data-testid="reach-actions" data-customer-id={customerId}>
      <div className="ba-reach__buttons">
        {wecom ? (
          <Button
            className="ba-reach__button ba-reach__button--wecom"
            aria-label={t('reach.chatLabel')}
            loading={busy === 'chat'}
            onClick={() => void chat()}
            data-testid="reach-chat"
          >
            <MessageOutline /> {t('reach.chat')}
            {wecom.stale && <span className="ba-reach__stale">{t('reach.stale')}</span>}
          </Button>
        ) : (
          <Button
            className="ba-reach__button"
            aria-label={t('reach.bindLabel')}
            onClick={() => {
              onActed?.();
              go(kycBindTarget(customerId));
            }}
            data-testid="reach-bind"
          >
            <LinkOutline /> {t('reach.bind')}
          </Button>
        )}
        <Button
          className="ba-reach__button ba-reach__button--call"
          aria-label={data.phoneMasked ? t('reach.callLabel', { phone: revealed ?? data.phoneMasked }) : t('reach.noPhone')}
          disabled={!data.phoneMasked}
          loading={busy === 'call'}
          onClick={() => void reveal('call')}
          data-testid="reach-call"
        >
          <PhoneFill /> {data.phoneMasked ? t('reach.call') : t('reach.noPhone')}
        </Button>
        {inThisChat && (
          <Button
            className="ba-reach__button ba-reach__button--send"
            aria-label={t('reach.sendLabel')}
            onClick={() => setTemplatesOpen(true)}
            data-testid="reach-send"
          >
            <SendOutline /> {t('reach.send')}
          </Button>
        )}
      </div>
      {data.phoneMasked && (
        <p className="ba-row ba-reach__phone">
          <span data-testid="reach-phone">{revealed ?? data.phoneMasked}</span>
          {revealed ? (
            <span className="ba-small-caption">{t('reach.revealed')}</span>
          ) : (
            <button
              type="button"
              className="ba-reach__reveal ba-hit"
              disabled={busy === 'reveal'}
              onClick={() => void reveal('view')}
              data-testid="reach-reveal"
            >
              {t('reach.reveal')}
            </button>
          )}
        </p>
      )}
      {inThisChat && <TemplateSheet visible={templatesOpen} client={data} eventId={eventId} onClose={() => setTemplatesOpen(false)} />}
    </div>
  );
}

/** Pick an occasion, text or card, and the client's language; see it as the client will; send it into this chat. */
function TemplateSheet({
  visible,
  client,
  eventId,
  onClose,
}: {
  visible: boolean;
  client: CustomerReach;
  eventId: number | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [template, setTemplate] = useState<MessageTemplate>('birthday');
  const [kind, setKind] = useState<MessageKind>('card');
  // A message to the client starts in the manager's own language.
  const [language, setLanguage] = useState<Language>(currentLanguage);
  const [sending, setSending] = useState(false);
  const message = composeMessage(template, kind, language, client, cardTarget());

  const send = async () => {
    setSending(true);
    try {
      await sendToCurrentChat(message);
      onClose();
      showToast(t('reach.templates.sent'));
      await offerToLog(
        { customerId: client.customerId, channel: 'wecom', at: Date.now(), eventId, name: clientName(client) },
        t,
        (to) => void navigate(to),
      );
    } catch (error) {
      if (!isCancelled(error)) showToast(wecomFailure(error, t, 'send'));
    } finally {
      setSending(false);
    }
  };

  return (
    <Popup visible={visible} onMaskClick={onClose} onClose={onClose} bodyClassName="ba-sheet" destroyOnClose>
      <SheetHead title={t('reach.templates.title')} onClose={onClose} />
      <div className="ba-sheet__body ba-reach-sheet__body" data-testid="reach-templates">
        <RadioButtons
          label={t('reach.templates.title')}
          options={MESSAGE_TEMPLATES}
          value={template}
          onChange={setTemplate}
          render={(option) => t(`reach.templates.name.${option}`)}
          className="ba-wrap ba-reach-chips"
          itemClassName="ba-reach-chips__item"
        />
        <div className="ba-wrap ba-reach-sheet__pair">
          <RadioButtons
            label={t('reach.templates.kind.card')}
            options={['card', 'text'] as const}
            value={kind}
            onChange={setKind}
            render={(option) => t(`reach.templates.kind.${option}`)}
            className="ba-wrap ba-reach-chips"
            itemClassName="ba-reach-chips__item"
          />
          <RadioButtons
            label={t('reach.templates.language.en')}
            options={LANGUAGES}
            value={language}
            onChange={setLanguage}
            render={(option) => t(`reach.templates.language.${option}`)}
            className="ba-wrap ba-reach-chips"
            itemClassName="ba-reach-chips__item"
          />
        </div>
        <p className="ba-caption ba-reach-sheet__label">{t('reach.templates.preview')}</p>
        {message.msgtype === 'news' ? (
          <div className="ba-stack ba-reach-card" data-testid="reach-preview">
            <strong className="ba-reach-card__title">{message.news.title}</strong>
            <span className="ba-reach-card__desc">{message.news.desc}</span>
          </div>
        ) : (
          <p className="ba-reach-bubble" data-testid="reach-preview">
            {message.text.content}
          </p>
        )}
      </div>
      <div className="ba-sheet__foot">
        <Button
          block
          color="primary"
          shape="rounded"
          size="large"
          loading={sending}
          onClick={() => void send()}
          data-testid="reach-send-confirm"
        >
          {t('reach.templates.send')}
        </Button>
      </div>
    </Popup>
  );
}

/** The reach actions in a bottom sheet: what a long press on a client-list row opens. */
export function ReachSheet({
  customerId,
  name,
  visible,
  onClose,
  children,
}: {
  customerId: number;
  name: string;
  visible: boolean;
  onClose: () => void;
  /** The opener's own actions on the client (the list's pin), after the ways to reach them. */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Popup visible={visible} onMaskClick={onClose} onClose={onClose} bodyClassName="ba-sheet" destroyOnClose>
      <SheetHead title={t('reach.title', { name })} onClose={onClose} />
      <div className="ba-sheet__body ba-reach-sheet__body" data-testid="reach-sheet">
        <ReachActions customerId={customerId} layout="list" onActed={onClose} />
        {children}
        <p className="ba-caption ba-reach-sheet__notice">{t('reach.notice')}</p>
      </div>
    </Popup>
  );
}
