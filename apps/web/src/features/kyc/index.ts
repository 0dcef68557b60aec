import { registerKycLocales } from './locales';

registerKycLocales();

export const kycPages = {
  kycIndex: () => import('./kyc-index-page'),
};

export { installSidebarFlow } from './sidebar-flow';
export { kycTarget } from './kyc-transitions';
export { kycLocales } from './locales';
