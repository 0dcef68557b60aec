/** Keys of values the product keeps in the browser (docs/spec.md §3). */
export const StorageKey = {
  token: 'token',
  login: 'loginInfo',
  kyc: 'kyc',
  kycCustomerId: 'kyc_customerId',
  appSettings: 'appSettings',
  language: 'language',
  /** localStorage, like the language: red or green for a rise, once the user has chosen (ADR 0048). */
  trendColours: 'trendColours',
  /** sessionStorage: the state of the sign-in this tab started (ADR 0011). */
  signInState: 'signInState',
  /** sessionStorage: the user signed out in this tab; sign in again only when they ask. */
  signedOut: 'signedOut',
  /** sessionStorage: this tab's id, which its drafts are kept under (ADR 0013). */
  draftTab: 'draftTab',
} as const;
