/** Reaching a client in one tap (ADR 0039): WeCom chat, an audited call, a greeting into the chat, then the offer to log it. */
export { ReachActions, ReachSheet } from './reach-actions';
