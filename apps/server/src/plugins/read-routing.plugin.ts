import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { formatLsn, parseLsn } from '../db/lsn';
import { MEMBER_WROTE_CHANNEL, MemberPositions } from '../db/member-positions';
import type { ReadRouter } from '../db/read-routing';
import { STANDBY_READS } from '../http/standby-reads';

/**
 * Read-your-writes across replicas (ADR 0052): after a write the primary's WAL position goes back in this cookie,
 * and later reads need a standby that replayed it. HttpOnly, Strict, `__Host-` over HTTPS (a sibling subdomain
 * cannot plant one). Untrusted: read through `parseLsn`, and a position beyond the primary's is ignored, so a
 * forged one only sends its sender's own reads to the primary after a wait.
 */
const COOKIE = 'broker_read_after';
const cookieName = (request: FastifyRequest) => (request.protocol === 'https' ? `__Host-${COOKIE}` : COOKIE);

/**
 * Standbys in use replayed every position sampled up to the lag bound ago, samples that may be that old too:
 * twice the bound, plus 5 s for the sampling look and the next request. A longer life costs nothing.
 */
const readAfterCookieSeconds = (maxLagMs: number) => Math.ceil((2 * maxLagMs + 5000) / 1000);

/** Undefined: no cookie, expired, or not an LSN. */
function readAfter(request: FastifyRequest): bigint | undefined {
  return parseLsn((request.cookies as Record<string, string | undefined> | undefined)?.[cookieName(request)]);
}

function setReadAfter(request: FastifyRequest, reply: FastifyReply, lsn: bigint, maxAgeSeconds: number) {
  void reply.setCookie(cookieName(request), formatLsn(lsn), {
    httpOnly: true,
    secure: request.protocol === 'https',
    sameSite: 'strict',
    path: '/',
    maxAge: maxAgeSeconds,
    // `/` is a valid cookie character, and parseLsn reads only PostgreSQL's form.
    encode: String,
  });
}

/**
 * With standbys, a listed read runs on one that replayed the caller's last write (this browser's cookie, and the
 * member's writes announced by any process); other staff requests on the primary, answering and announcing the
 * position after a write. Without standbys it decorates nothing. `listen`: a direct connection to the primary,
 * so it hears every process's announcements of a member's writes.
 */
async function readRoutingPlugin(app: FastifyInstance, options: { listen: boolean }) {
  const reads: ReadRouter | undefined = app.database.reads;
  if (!reads) return;
  const cookieSeconds = readAfterCookieSeconds(reads.maxLagMs);
  const members = new MemberPositions({ ttlMs: cookieSeconds * 1000 });
  if (options.listen) {
    // Missed announcements leave a member's other browsers with their own cookies.
    const stopListening = await app.database.listen(MEMBER_WROTE_CHANNEL, {
      onNotify: (payload) => members.hear(payload),
      onLive: () => undefined,
    });
    app.addHook('onClose', async () => stopListening());
  }
  const routeStatements: NonNullable<FastifyInstance['routeStatements']> = (endpoint, request, reply, work) => {
    const staffId = request.caller?.staffId;
    if (STANDBY_READS.has(endpoint)) return reads.onStandby({ claimed: readAfter(request), member: members.of(staffId) }, work);
    if (!endpoint.auth) return work();
    return reads.onPrimaryNoting(
      work,
      (lsn) => {
        setReadAfter(request, reply, lsn, cookieSeconds);
        if (staffId !== undefined) members.note(staffId, lsn);
      },
      staffId,
    );
  };
  app.decorate('routeStatements', routeStatements);
}

export default fp(readRoutingPlugin, { name: 'read-routing', dependencies: ['db', '@fastify/cookie'] });
