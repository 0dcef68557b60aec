/** A client manager's search of their own book: the client list and KYC's binding search share it (ADR 0026). */
export { interpretKeyword, matchedOn, type CustomerKeyword } from './customer-keyword';
export type { CustomerCriteria } from './customer-filters';
export { BookIndexStore, bookIndexCounters } from './book-index-store';
export type { HeldCustomer } from './book-index';
export { searchAliases, type RowOf } from './customer-tables';
export { createCustomerSearch } from './customer-search.repository';
