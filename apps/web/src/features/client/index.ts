export const clientPages = {
  clientInformation: () => import('./client-information-page'),
  clientHoldingStock: () => import('./client-holding-stock-page'),
  clientTransaction: () => import('./client-transaction-page'),
  clientMoneyRecord: () => import('./client-money-record-page'),
  clientTransferStock: () => import('./client-transfer-stock-page'),
  clientEdit: () => import('./client-edit-page'),
};
