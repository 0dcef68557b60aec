import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { dispatchMotPushes, type DispatchResult } from './push-dispatcher';
import { enqueueMotPushes, type EnqueueOptions, type EnqueueResult } from './push-outbox';
import type { QuietHours } from './quiet-hours';

declare module 'fastify' {
  interface FastifyInstance {
    /** MOT cards pushed into WeCom (docs/mot.md, ADR 0042). */
    motPush: {
      /** A real-time rule fired (threshold change, import): queue the cards and send what is due. */
      afterNewEvents(options: EnqueueOptions): Promise<EnqueueResult>;
      /** The ticker calls it; tests too. */
      dispatchNow(): Promise<DispatchResult>;
    };
  }
}

export interface MotPushPluginOptions {
  /** 0: no dispatch on this replica (cards still queue). */
  intervalMs: number;
  quietHours: QuietHours | null;
  minIntervalMs: number;
  /** Null: nothing is sent (cards wait). */
  appUrl: () => string | null;
}

async function motPushPlugin(app: FastifyInstance, options: MotPushPluginOptions) {
  let dispatching: Promise<DispatchResult> | null = null;
  const idle: DispatchResult = { sent: 0, retried: 0, failed: 0, skipped: 0, deferred: 0 };
  let warnedNoUrl = false;
  const dispatchNow = () => {
    const appUrl = options.appUrl();
    if (!appUrl) {
      if (!warnedNoUrl) app.log.warn('mot push: APP_PUBLIC_URL is not set, so MOT cards wait unsent (README, configuration)');
      warnedNoUrl = true;
      return Promise.resolve(idle);
    }
    // One round at a time per replica; other replicas take other rows (SKIP LOCKED).
    dispatching ??= dispatchMotPushes(app.database, {
      corps: app.corps.all(),
      send: (corp, agentCode, body) => app.wecom.sendMessage(corp, agentCode, body),
      appUrl,
      quietHours: options.quietHours,
      minIntervalMs: options.minIntervalMs,
    })
      .then((result) => {
        if (result.sent + result.failed + result.retried > 0) app.log.info({ motPush: result }, `mot push: ${result.sent} cards sent`);
        return result;
      })
      .finally(() => {
        dispatching = null;
      });
    return dispatching;
  };
  const dispatchInBackground = () =>
    void dispatchNow().catch((error: unknown) => app.log.error({ err: error }, 'mot push failed; will retry on the next tick'));
  app.decorate('motPush', {
    async afterNewEvents(enqueue: EnqueueOptions) {
      const queued = await enqueueMotPushes(app.database, enqueue);
      if (queued.cards > 0 && options.intervalMs > 0) dispatchInBackground();
      return queued;
    },
    dispatchNow,
  });

  if (options.intervalMs > 0) {
    let timer: NodeJS.Timeout | undefined;
    app.addHook('onReady', async () => {
      timer = setInterval(dispatchInBackground, options.intervalMs);
      timer.unref();
    });
    app.addHook('preClose', async () => {
      clearInterval(timer);
      await dispatching?.catch(() => undefined);
    });
  }
}

export default fp(motPushPlugin, { name: 'mot-push', dependencies: ['db', 'corps', 'wecom'] });
