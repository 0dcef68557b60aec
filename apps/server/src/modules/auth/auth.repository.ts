import { and, eq, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { AppLanguage } from '@broker/contract';
import type { Database } from '../../db/client';
import { authSessions, signInAttempts, staff } from '../../db/schema';
import { float8, selection, selectQuery, selectRows, tableAlias, tableAs, type RowOf } from '../../db/sql-rows';

export type StaffRow = typeof staff.$inferSelect;

/** Ended sessions are kept a week past their expiry for an investigation, then deleted (they sign nobody in). */
export const ENDED_SESSION_RETENTION_DAYS = 7;
/** Per sign-in, so a sign-in never waits on a large delete. */
const PRUNE_BATCH = 500;

async function pruneEndedSessions(db: Database) {
  await db.execute(sql`
    delete from ${authSessions} where ${authSessions.id} in (
      select ${authSessions.id} from ${authSessions}
      where ${authSessions.expiresAt} < now() - make_interval(days => ${ENDED_SESSION_RETENTION_DAYS})
      limit ${PRUNE_BATCH})`);
}

const session = tableAlias(authSessions, 's');
const sessionStaff = tableAlias(staff, 'st');
const sessionForRequestColumns = selection({
  sessionId: float8(session.id),
  corpId: session.corpId,
  expiresAtMs: sql<number>`(extract(epoch from ${session.expiresAt}) * 1000)::float8`,
  revoked: sql<boolean>`${session.revokedAt} is not null`,
  staffId: sessionStaff.id,
  staffName: sessionStaff.name,
  wecomUserId: sessionStaff.wecomUserId,
  staffActive: sessionStaff.active,
  /** Null for sessions older than migration 0019. */
  bindingHash: session.bindingHash,
});
export type SessionForRequest = RowOf<typeof sessionForRequestColumns>;

export function createAuthRepository(db: Database) {
  return {
    async findStaffByWecomUser(corpId: number, wecomUserId: string): Promise<StaffRow | undefined> {
      const [row] = await db
        .select()
        .from(staff)
        .where(and(eq(staff.corpId, corpId), eq(staff.wecomUserId, wecomUserId)))
        .limit(1);
      return row;
    },

    async refreshStaffContact(staffId: number, contact: { email: string | null; mobile: string | null }) {
      await db.update(staff).set({ email: contact.email, mobile: contact.mobile, updatedAt: new Date() }).where(eq(staff.id, staffId));
    },

    /** The MOT cards' language (ADR 0042); written only when it changed. */
    async keepStaffLanguage(staffId: number, language: AppLanguage) {
      await db
        .update(staff)
        .set({ language, updatedAt: new Date() })
        .where(and(eq(staff.id, staffId), ne(staff.language, language)));
    },

    async findStaff(staffId: number): Promise<StaffRow | undefined> {
      const [row] = await db.select().from(staff).where(eq(staff.id, staffId)).limit(1);
      return row;
    },

    async createSession(input: typeof authSessions.$inferInsert) {
      await pruneEndedSessions(db);
      await db.insert(authSessions).values(input);
    },

    /** Sweeps the ones that ended unused. */
    async createSignInAttempt(input: typeof signInAttempts.$inferInsert) {
      await db.delete(signInAttempts).where(lt(signInAttempts.expiresAt, sql`now()`));
      await db.insert(signInAttempts).values(input);
    },

    /** Whatever happens next, its state cannot be used again. */
    async consumeSignInAttempt(stateHash: string) {
      const [row] = await db
        .delete(signInAttempts)
        .where(eq(signInAttempts.stateHash, stateHash))
        .returning({ corpId: signInAttempts.corpId, agentCode: signInAttempts.agentCode, expiresAt: signInAttempts.expiresAt });
      return row;
    },

    /** Every live session of one browser, and the given one in any case; migration 0017's trigger announces each. */
    async revokeBrowserSessions(input: { bindingHash: string | null; sessionId?: number }): Promise<number> {
      const thisBrowser = input.bindingHash === null ? undefined : eq(authSessions.bindingHash, input.bindingHash);
      const thisSession = input.sessionId === undefined ? undefined : eq(authSessions.id, input.sessionId);
      if (!thisBrowser && !thisSession) return 0;
      const ended = await db
        .update(authSessions)
        .set({ revokedAt: sql`now()` })
        .where(and(isNull(authSessions.revokedAt), or(thisBrowser, thisSession)))
        .returning({ id: authSessions.id });
      return ended.length;
    },

    /** On every device. */
    async revokeStaffSessions(staffId: number, corpId: number): Promise<number> {
      const ended = await db
        .update(authSessions)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(authSessions.staffId, staffId), eq(authSessions.corpId, corpId), isNull(authSessions.revokedAt)))
        .returning({ id: authSessions.id });
      return ended.length;
    },

    /** On every authenticated request: one hand-written prepared statement (Drizzle's builder cost visible CPU, ADR 0029). */
    async findSession(tokenHash: string): Promise<SessionForRequest | undefined> {
      const [row] = await selectRows(
        db,
        selectQuery(
          sessionForRequestColumns,
          sql`from ${tableAs(session)} join ${tableAs(sessionStaff)} on ${sessionStaff.id} = ${session.staffId}
             where ${session.tokenHash} = ${tokenHash}
             limit 1`,
        ),
        { prepare: true },
      );
      return row;
    },
  };
}

export type AuthRepository = ReturnType<typeof createAuthRepository>;
