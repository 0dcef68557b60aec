/**
 * Customer search: a client manager's search of their own book, by keyword and filters. The client
 * list (manage) and KYC's "find the customer to bind" both search through it, so a keyword means
 * the same on both screens (ADR 0026).
 */
export { interpretKeyword, matchedOn, type CustomerKeyword, type MatchedOn } from './customer-keyword';
export type { CustomerCriteria } from './customer-filters';
export { BookIndexStore, bookIndexCounters } from './book-index-store';
export type { HeldCustomer } from './book-index';
export { searchAliases, type RowOf, type Selection } from './customer-tables';
export {
  createCustomerSearch,
  type CustomerSearch,
  type PageView,
  type SortField,
  type SortOrder,
  type StatRow,
} from './customer-search.repository';
