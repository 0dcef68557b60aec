export { default as motPushPlugin } from './mot-push.plugin';
export { announceSweep, enqueueMotPushes, type EnqueueResult } from './push-outbox';
export { dispatchMotPushes, type DispatchResult } from './push-dispatcher';
export { parseQuietHours } from './quiet-hours';
export { motPushRoutes } from './mot-push.routes';
