export { default as motPushPlugin, type MotPushPluginOptions } from './mot-push.plugin';
export { announceSweep, enqueueMotPushes, type EnqueueResult, type PushReason } from './push-outbox';
export { dispatchMotPushes, PUSH_DEFAULTS, type DispatchResult } from './push-dispatcher';
export { buildTextcard, TEXTCARD_LIMITS } from './push-card';
export { DEFAULT_QUIET_HOURS, nextSendableAt, parseQuietHours } from './quiet-hours';
export { motPushRoutes } from './mot-push.routes';
