export const clientPages = {
  clientInformation: () => import('./client-information-page'),
  clientHoldingStock: () => import('./client-holding-stock-page'),
  clientTransaction: () => import('./client-transaction-page'),
  clientMoneyRecord: () => import('./client-money-record-page'),
  clientTransferStock: () => import('./client-transfer-stock-page'),
  clientEdit: () => import('./client-edit-page'),
};

/** The client's pages and the links to them: here, as a module of their own would be one more chunk on the first screen. */
export const CLIENT_PATHS = {
  profile: '/client/information',
  holdings: '/client/information/accountDetail/holdingStock',
  trades: '/client/information/accountDetail/transaction',
  money: '/client/information/moneyRecord/moneyRecord',
  transfers: '/client/information/moneyRecord/transferStock',
  edit: '/client/edit',
} as const;

export const withCustomer = (path: string, customerId: number) => `${path}?customerId=${customerId}`;
export const clientProfilePath = (customerId: number) => withCustomer(CLIENT_PATHS.profile, customerId);
