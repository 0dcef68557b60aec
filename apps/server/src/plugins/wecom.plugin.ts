import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { createCredentialStore } from '../wecom/credential-store';
import { createWecomClient, type WecomClient } from '../wecom/wecom-client';
import { WecomFailure } from '../wecom/wecom-errors';
import { createWecomHealth, type WecomHealth } from '../wecom/wecom-health';
import { probeWecom, type ProbeLine } from '../wecom/wecom-probe';

declare module 'fastify' {
  interface FastifyInstance {
    wecom: WecomClient;
    /** Reported by /readyz. */
    wecomHealth: WecomHealth;
    /** One log line per app now, then again while any has a problem, so a fixed console heals /readyz without a restart. */
    startWecomProbe: (recheckMs: number) => Promise<ProbeLine[]>;
  }
}

async function wecomPlugin(app: FastifyInstance, options: { apiBase: () => string }) {
  const health = createWecomHealth(app.corps.all());
  const wecom = createWecomClient({
    apiBase: options.apiBase,
    credentials: createCredentialStore(app.database.db),
    onOutcome: health.recordCall,
  });
  app.decorate('wecom', wecom);
  app.decorate('wecomHealth', health);

  // WeCom's own words and the admin setting that fixes it go to the log; the client gets the envelope (ADR 0017).
  app.addHook('onError', async (request, reply, error) => {
    if (!(error instanceof WecomFailure)) return;
    const { wecom: detail } = error;
    if (detail.retryAfterSeconds !== undefined) void reply.header('retry-after', String(detail.retryAfterSeconds));
    request.log.warn(
      { wecom: detail, code: error.code },
      `WeCom ${detail.errcode} ${detail.problem} on ${detail.path}: ${detail.adminFix}`,
    );
  });

  let timer: NodeJS.Timeout | undefined;
  let closing = false;
  const runProbe = async () => {
    const lines = await probeWecom(wecom, app.corps.all(), health);
    for (const { message, ...probe } of lines) app.log[probe.problem ? 'error' : 'info']({ probe }, message);
    return lines;
  };
  app.decorate('startWecomProbe', async (recheckMs: number) => {
    const lines = await runProbe();
    const recheck = () => {
      if (closing || recheckMs <= 0 || !health.hasProblems()) return;
      timer = setTimeout(
        () => void runProbe().then(recheck, (error: unknown) => app.log.error({ err: error }, 'WeCom probe failed')),
        recheckMs,
      );
      timer.unref();
    };
    recheck();
    return lines;
  });
  app.addHook('preClose', async () => {
    closing = true;
    clearTimeout(timer);
  });
}

export default fp(wecomPlugin, { name: 'wecom', dependencies: ['db', 'corps'] });
