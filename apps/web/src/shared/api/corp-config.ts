import { queryOptions } from '@tanstack/react-query';
import { endpoints } from './contract';
import { request } from './request';
import { queryClient } from './query-client';

export const corpConfigQuery = (corpCode: string) =>
  queryOptions({
    queryKey: ['corpConfig', 'detail', { corpCode }],
    queryFn: () => request(endpoints.getCorpConfig, { corpCode }),
    staleTime: Infinity,
  });

export const loadCorpConfig = (corpCode: string) => queryClient.fetchQuery(corpConfigQuery(corpCode));
