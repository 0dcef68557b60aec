import { queryOptions } from '@tanstack/react-query';
import { endpoints } from '../../shared/api/contract';
import { request } from '../../shared/api/request';
import { getCurrentExternalUserId } from '../../shared/wecom/wecom-sdk';

/** How to reach a client: the bound WeCom contact and the masked phone (never the number). */
export const reachQuery = (customerId: number) =>
  queryOptions({
    queryKey: ['customerReach', 'detail', { customerId }],
    queryFn: ({ signal }) => request(endpoints.getReach, { customerId }, { signal, silent: true }),
  });

/** The customer of the chat the sidebar is open in (only asked where WeCom can answer: single_chat_tools). */
export const currentChatContactQuery = () =>
  queryOptions({
    queryKey: ['wecomCurrentContact', 'detail', {}],
    queryFn: () => getCurrentExternalUserId(),
    retry: false,
    staleTime: 30_000,
  });

/** The full number, audited by the server as a reveal (`view`) or a dial (`call`); a refusal toasts (e.g. 094429). */
export const revealPhone = (customerId: number, purpose: 'view' | 'call') => request(endpoints.revealPhone, { customerId, purpose });
