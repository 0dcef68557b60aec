import { vi } from 'vitest';
import type { LoginResult } from '@broker/contract';
import { useUser } from '../shared/session/user-store';

/**
 * What the request-layer tests fake of the server: a fetch that records each call, answers in the
 * contract's envelope, and a signed-in staff member. One copy here instead of one per test file.
 */
export interface FakeCall {
  url: string;
  init: RequestInit;
}

export const jsonResponse = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A success envelope carrying `data`. */
export const okResponse = (data: unknown) => jsonResponse({ code: '0', msg: 'ok', data });

/** chanwaiman's sign-in (or another's, by `overrides`), valid for a minute from now. */
export const signedIn = (overrides: Partial<LoginResult> = {}): LoginResult => ({
  token: 'tok-1',
  onlineStaff: true,
  bd: true,
  heco: false,
  tokenExpireTime: Date.now() + 60_000,
  staffEmail: { email: null },
  userId: 'chanwaiman',
  staffName: '陈伟文',
  ...overrides,
});

/** Signs `userId` in for an hour (token `token-of-<userId>`), as a real sign-in leaves the session store. */
export function signInAs(userId: string) {
  useUser.getState().signIn(signedIn({ token: `token-of-${userId}`, userId, staffName: userId, tokenExpireTime: Date.now() + 3_600_000 }));
}

/**
 * Replaces `fetch`: every call is recorded in the returned list and answered by `answer` (read at call
 * time, so a test can swap it). Undo with `vi.unstubAllGlobals()`.
 */
export function stubFetch(answer: (call: FakeCall) => Response | Promise<Response>): FakeCall[] {
  const calls: FakeCall[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const call = { url, init };
    calls.push(call);
    return answer(call);
  });
  return calls;
}
