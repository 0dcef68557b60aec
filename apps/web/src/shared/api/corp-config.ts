import { endpoints } from './contract';
import { request } from './request';
import { queryClient } from './query-client';

export const loadCorpConfig = (corpCode: string) =>
  queryClient.fetchQuery({
    queryKey: ['corpConfig', 'detail', { corpCode }],
    queryFn: () => request(endpoints.getCorpConfig, { corpCode }),
    staleTime: Infinity,
  });
