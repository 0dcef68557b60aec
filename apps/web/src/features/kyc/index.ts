export const kycPages = {
  kycIndex: () => import('./kyc-index-page'),
};
