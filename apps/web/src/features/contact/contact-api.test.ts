import { expect, test } from 'vitest';
import type { ContactRecord } from '@broker/contract';
import { queryClient } from '../../shared/api/query-client';
import { invalidateAfterWrite } from './contact-api';

test("a written record refreshes MOT's ranked day and an event's rank too (a linked event is handled now)", async () => {
  queryClient.clear();
  const keys = [
    ['motRanked', 'list', {}],
    ['motEventRank', 'detail', { eventId: 7 }],
    ['motTodoCount', 'detail', {}],
    ['contactLog', 'list', {}],
  ];
  for (const queryKey of keys) queryClient.setQueryData(queryKey, { cached: true });
  await invalidateAfterWrite({ recordId: 1, customerId: 2 } as ContactRecord);
  expect(keys.filter((queryKey) => !queryClient.getQueryState(queryKey)?.isInvalidated)).toEqual([]);
});
