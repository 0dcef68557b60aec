import { queryOptions } from '@tanstack/react-query';
import { endpoints } from '../../shared/api/contract';
import { request } from '../../shared/api/request';
import { isContactEntry } from '../../shared/session/app-settings-store';
import { getCurrentExternalUserId, getWeComEntry, isWeComBrowser } from '../../shared/wecom/wecom-sdk';

export const SEARCH_PAGE_SIZE = 20;

/** The customer WeCom opened the page for, or null; per mount, since the page URL is part of the JS-SDK signature. */
export const currentContactQuery = () =>
  queryOptions({
    queryKey: ['kyc', 'detail', 'currentContact'],
    queryFn: async () => {
      if (!isWeComBrowser() || !isContactEntry(await getWeComEntry())) return null;
      return getCurrentExternalUserId();
    },
    staleTime: 0,
    gcTime: 0,
  });

/** Is the contact bound, and to which of my customers; also WeCom's name for the contact. */
export const kycStatusQuery = (externalUserId: string) =>
  queryOptions({
    queryKey: ['kyc', 'detail', { externalUserId }],
    queryFn: ({ signal }) => request(endpoints.hasKyc, { externalUserId }, { signal, silent: true }),
    staleTime: 0,
  });

export const kycSearchQuery = (keyword: string) =>
  queryOptions({
    queryKey: ['kyc', 'list', { keyword }],
    queryFn: ({ signal }) => request(endpoints.kycSearch, { keyword, pageNum: 1, pageSize: SEARCH_PAGE_SIZE }, { signal, silent: true }),
    staleTime: 10_000,
  });

export const bindContact = (externalUserId: string, customerId: number) =>
  request(endpoints.kycBind, { externalUserId, customerId }, { silent: true });

export const unbindContact = (externalUserId: string) => request(endpoints.kycUnbind, { externalUserId }, { silent: true });
