/** Keys of values the product keeps in the browser (SPEC.md §3). */
export const StorageKey = {
  token: 'token',
  login: 'loginInfo',
  kyc: 'kyc',
  kycCustomerId: 'kyc_customerId',
  appSettings: 'appSettings',
  language: 'language',
} as const;
