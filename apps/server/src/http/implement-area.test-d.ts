/**
 * Type tests, checked by `npm run typecheck` (never run): implementing the contract wrongly must not
 * compile. Each `@ts-expect-error` fails the type check if the line below it ever compiles.
 */
import { contract } from '@broker/contract';
import type { Caller } from './caller';
import { implementArea, withOptions, type AreaRoutes, type ContractRoutes } from './endpoint-route';

const binding = {
  externalUserId: 'wm1',
  customerId: 1,
  customerName: '',
  customerNameEn: '',
  customerNo: '',
  phone: null,
  boundAt: 0,
  stale: null,
};
const search = { list: [], total: 0, pageNum: 1, pageSize: 20, hasMore: false };

// The whole area, each handler typed by its endpoint: compiles.
export const kyc = implementArea(contract.kyc, () => ({
  kycSearch: ({ input, caller }) => {
    const staffId: number = caller.staffId;
    const keyword: string = input.keyword;
    return { ...search, total: staffId + keyword.length };
  },
  kycBind: () => binding,
  kycUnbind: () => binding,
  hasKyc: () => ({ bound: false, ownCustomer: false, binding: null, contact: null }),
}));

// A handler missing.
// @ts-expect-error hasKyc is not implemented
implementArea(contract.kyc, () => ({ kycSearch: () => search, kycBind: () => binding, kycUnbind: () => binding }));

implementArea(contract.kyc, () => ({
  kycSearch: () => search,
  kycBind: () => binding,
  kycUnbind: () => binding,
  hasKyc: () => ({ bound: false, ownCustomer: false, binding: null, contact: null }),
  // @ts-expect-error an extra handler: no such endpoint in the area
  kycForget: () => binding,
}));

implementArea(contract.kyc, () => ({
  // @ts-expect-error a response outside the contract
  kycSearch: () => ({ ...search, total: 'many' }),
  kycBind: () => binding,
  kycUnbind: () => binding,
  hasKyc: () => ({ bound: false, ownCustomer: false, binding: null, contact: null }),
}));

implementArea(contract.kyc, () => ({
  kycSearch: () => search,
  // @ts-expect-error an input field the endpoint does not take
  kycBind: ({ input }) => ({ ...binding, customerId: input.customerNo }),
  kycUnbind: () => binding,
  hasKyc: () => ({ bound: false, ownCustomer: false, binding: null, contact: null }),
}));

// A public endpoint's handler has no caller to ask for.
implementArea(contract.auth, () => ({
  startSignIn: () => ({ authorizeUrl: '', state: '', expiresAt: 0 }),
  // @ts-expect-error loginQywx is public: there is no caller
  loginQywx: ({ caller }: { caller: Caller }) => ({ token: caller.wecomUserId }) as never,
  resumeSession: () => ({}) as never,
  signOut: ({ caller }) => ({ endedSessions: caller.sessionId }),
  signOutEverywhere: () => ({ endedSessions: 0 }),
  getCorpConfig: () => ({}) as never,
}));

declare const routesOf: { [Name in keyof typeof contract]: AreaRoutes<(typeof contract)[Name]> };
declare const authNeedingOptions: AreaRoutes<typeof contract.auth, { tokenTtlSeconds: number }>;

// Every area, each with its own implementation: compiles.
export const complete: ContractRoutes = { ...routesOf, auth: withOptions(authNeedingOptions, { tokenTtlSeconds: 60 }) };

// @ts-expect-error the audit area is not registered
export const missingArea: ContractRoutes = { ...routesOf, audit: undefined };

// @ts-expect-error the manage slot holds the customer area's routes
export const wrongArea: ContractRoutes = { ...routesOf, manage: routesOf.customer };

// @ts-expect-error an area that needs options registered without them
export const withoutOptions: ContractRoutes = { ...routesOf, auth: authNeedingOptions };
