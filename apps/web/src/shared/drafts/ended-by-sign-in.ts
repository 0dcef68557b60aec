import { RELOGIN_CODES } from '../api/contract';
import { ApiError } from '../api/api-error';

/** The session ended (080000/080001): sign-in is under way, and the draft, marked as submitting, stays to be offered on return. */
export const endedBySignIn = (error: unknown): boolean => error instanceof ApiError && RELOGIN_CODES.includes(error.code);
