/** The contact log's pages (also in `@broker/contract/app-routes` and the route table). */
export const CONTACT_PATHS = {
  new: '/client/contact/new',
  record: '/client/contact/record',
  log: '/client/contact/log',
  print: '/client/contact/print',
} as const;
