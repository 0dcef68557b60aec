import { z } from 'zod';
import { ErrorCode } from '../error-codes';
import { currencySchema, epochMsSchema, idSchema, clientNameShape } from '../common';
import { customerFilterShape, manageEndpoint, sortFieldSchema } from './manage';

/**
 * Pinned and recently opened clients, recent searches and saved filters (ADR 0049): the staff member's, kept on the
 * server; a client shows only while it is in the caller's book.
 */

/** Most clients one manager may pin: a short list to come back to, not a second client list. */
export const MAX_PINNED_CLIENTS = 50;
/** Most saved filters one manager may keep. */
export const MAX_SAVED_FILTERS = 20;
/** Recent searches and recently opened clients kept, each, newest first. */
export const MAX_RECENT_SEARCHES = 10;
export const MAX_RECENT_CLIENTS = 10;

/** A client in a shortcut list: enough to name it and open it. */
export const shortcutClientSchema = z.object({
  ...clientNameShape,
  /** When it was pinned or last opened. */
  at: epochMsSchema,
});
export type ShortcutClient = z.infer<typeof shortcutClientSchema>;

/** A recent search: the keyword as the search ran it (trimmed). */
export const recentKeywordSchema = z.string().trim().min(1, 'must not be empty').max(50);

/** A filter set as the list searches with it: the search's own filter fields and sort, checked by the same schema. */
export const savedFilterSetSchema = z.strictObject({
  ...customerFilterShape,
  sortBy: sortFieldSchema.default('totalAssets'),
  sortOrder: z.enum(['asc', 'desc']).default('desc'),
});
export type SavedFilterSet = z.output<typeof savedFilterSetSchema>;

export const savedFilterNameSchema = z.string().trim().min(1, 'must not be empty').max(20, 'must be at most 20 characters');

/** A saved filter set as answered: stored with its defaults applied; a response schema has no defaults of its own. */
export const savedFilterSetAnswerSchema = z.object({
  keyword: z.string().optional(),
  channels: z.array(customerFilterShape.channels.unwrap().element).optional(),
  statuses: z.array(customerFilterShape.statuses.unwrap().element).optional(),
  ccy: currencySchema,
  assetMin: z.number().optional(),
  assetMax: z.number().optional(),
  openDateFrom: z.string().optional(),
  openDateTo: z.string().optional(),
  kycBound: z.boolean().optional(),
  markets: z.array(customerFilterShape.markets.unwrap().element).optional(),
  hasHolding: z.boolean().optional(),
  sortBy: sortFieldSchema,
  sortOrder: z.enum(['asc', 'desc']),
});

export const savedFilterSchema = z.object({
  filterId: z.number().int(),
  name: z.string(),
  filters: savedFilterSetAnswerSchema,
  updatedAt: epochMsSchema,
});
export type SavedFilter = z.infer<typeof savedFilterSchema>;

export const shortcutsSchema = z.object({
  /** Most recently pinned first. */
  pinned: z.array(shortcutClientSchema),
  /** Most recently opened first. */
  recentClients: z.array(shortcutClientSchema),
  recentSearches: z.array(z.string()),
  /** By name. */
  savedFilters: z.array(savedFilterSchema),
});
export type Shortcuts = z.infer<typeof shortcutsSchema>;

export const getShortcuts = manageEndpoint({
  method: 'GET',
  path: '/api/client/customer/manage/shortcuts',
  request: z.strictObject({}),
  response: shortcutsSchema,
  summary: "The caller's pinned clients, recently opened clients, recent searches and saved filters",
});

export const setClientPin = manageEndpoint({
  method: 'POST',
  path: '/api/client/customer/manage/pin',
  request: z.strictObject({ customerId: idSchema, pinned: z.boolean() }),
  response: z.object({ pinned: z.array(shortcutClientSchema) }),
  summary: `Pin or unpin one of your clients (at most ${MAX_PINNED_CLIENTS} pinned: 090409 beyond); unpinning is always allowed`,
  errors: [ErrorCode.FORBIDDEN, ErrorCode.NOT_FOUND, ErrorCode.CONFLICT],
});

export const recordClientOpened = manageEndpoint({
  method: 'POST',
  path: '/api/client/customer/manage/opened',
  request: z.strictObject({
    customerId: idSchema,
    /** The keyword that found it, when it was opened from search results: kept as a recent search (not a search itself). */
    search: recentKeywordSchema.optional(),
  }),
  response: z.object({ customerId: z.number().int() }),
  summary: 'Remember that you opened one of your clients (and the search that found it)',
  errors: [ErrorCode.FORBIDDEN, ErrorCode.NOT_FOUND],
});

export const forgetRecentSearches = manageEndpoint({
  method: 'POST',
  path: '/api/client/customer/manage/forgetSearches',
  /** Without `search`, every recent search goes. */
  request: z.strictObject({ search: recentKeywordSchema.optional() }),
  response: z.object({ recentSearches: z.array(z.string()) }),
  summary: 'Remove one recent search, or all of them',
});

export const saveFilter = manageEndpoint({
  method: 'POST',
  path: '/api/client/customer/manage/saveFilter',
  request: z.strictObject({
    /** Absent: a new saved filter. Present: rename it and/or replace its filters. */
    filterId: idSchema.optional(),
    name: savedFilterNameSchema,
    /** Absent when renaming: the filters stay as they are. */
    filters: savedFilterSetSchema.optional(),
  }),
  /** The saved filter's id and name; the list reads the filters back with getShortcuts. */
  response: z.object({ filterId: z.number().int(), name: z.string() }),
  summary: `Save the current filters under a name, or rename one (names are unique per manager; at most ${MAX_SAVED_FILTERS})`,
  errors: [ErrorCode.NOT_FOUND, ErrorCode.CONFLICT],
});

export const deleteSavedFilter = manageEndpoint({
  method: 'POST',
  path: '/api/client/customer/manage/deleteFilter',
  request: z.strictObject({ filterId: idSchema }),
  response: z.object({ filterId: z.number().int() }),
  summary: 'Delete one of your saved filters',
  errors: [ErrorCode.NOT_FOUND],
});
