import { RELOGIN_CODES } from '../api/contract';
import { ApiError } from '../api/api-error';

/**
 * The save failed because the session ended (080000/080001): the auth feature is already taking the user
 * through sign-in, and the draft, marked as submitting, must stay as it is to be offered again on return.
 */
export const endedBySignIn = (error: unknown): boolean => error instanceof ApiError && RELOGIN_CODES.includes(error.code);
