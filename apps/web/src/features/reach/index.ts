/**
 * Reaching a client in one tap (ADR 0039): WeCom chat with the bound contact, an audited call, a
 * greeting sent into the client's chat from the sidebar, and the offer to log the contact afterwards.
 */
export { ReachActions, ReachSheet } from './reach-actions';
