import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { formatLsn, parseLsn } from '../db/lsn';
import { MEMBER_WROTE_CHANNEL, MemberPositions } from '../db/member-positions';
import type { ReadRouter } from '../db/read-routing';
import { STANDBY_READS } from '../http/standby-reads';

/**
 * Read-your-writes across API replicas (ADR 0052): after a staff member's request that may have
 * written, the primary's WAL position goes back in this cookie, and the browser sends it with the
 * next requests to whichever replica; their reads then need a standby that has replayed it.
 * HttpOnly (no script needs it), SameSite=Strict. Untrusted: read only through `parseLsn` (format
 * and length), and a position beyond any the primary has reached is ignored (the monitor's range
 * check), so the worst a forged value does is send its sender's own reads to the primary after
 * standbyReadWaitMs (tuning.ts).
 *
 * Over HTTPS it is `__Host-`, hence Secure, Path=/ and no Domain: the browser refuses such a cookie
 * from a sibling subdomain, which could otherwise plant one of the same name with a longer path
 * (sent first, read instead of ours) and make a member's reads skip their own last write.
 */
const COOKIE = 'broker_read_after';
const cookieName = (request: FastifyRequest) => (request.protocol === 'https' ? `__Host-${COOKIE}` : COOKIE);

/**
 * Long enough for every standby still in use to have replayed the write. A standby is used while it
 * has replayed every primary position the monitor sampled up to DATABASE_READ_MAX_LAG_MS ago; those
 * samples may themselves be up to DATABASE_READ_MAX_LAG_MS old while the primary's probe fails (the
 * monitor fails closed past that), hence twice the bound; plus 5 s for the look that samples the
 * write (a quarter second apart, a second's probe limit), a slow request and the browser's next one.
 * The cookie only makes reads wait for what a standby would have anyway: a longer life costs nothing.
 */
const readAfterCookieSeconds = (maxLagMs: number) => Math.ceil((2 * maxLagMs + 5000) / 1000);

/** The position this caller's reads must see, or undefined (no cookie, expired, or not an LSN). */
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
    // As PostgreSQL writes it: `/` is a valid cookie character, and parseLsn reads only this form.
    encode: String,
  });
}

export interface ReadRoutingOptions {
  /**
   * Whether this process can LISTEN (the session cache's LISTEN: a direct connection to the primary, not a
   * transaction-mode pooler): then it hears every process's announcements of a member's writes.
   */
  listen: boolean;
}

/**
 * With standbys (DATABASE_READ_URL), runs each endpoint's handler with its statements where they
 * belong: a listed read on a standby that has replayed the caller's last write (from the cookie of
 * this browser, and from the member's writes in any browser, announced by whichever process served
 * them); a staff member's other requests on the primary, answering the position after them if they
 * wrote, and announcing it; a public one (sign-in) on the primary. Without standbys it decorates
 * nothing, and handlers run as they are.
 */
async function readRoutingPlugin(app: FastifyInstance, options: ReadRoutingOptions) {
  const reads: ReadRouter | undefined = app.database.reads;
  if (!reads) return;
  const cookieSeconds = readAfterCookieSeconds(reads.maxLagMs);
  const members = new MemberPositions({ ttlMs: cookieSeconds * 1000 });
  if (options.listen) {
    // Missed announcements (the connection down) leave a member's other browsers with their own cookies.
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
