import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { authSessions, staff } from '../../db/schema';
import { selectRows } from '../../db/sql-rows';

export type StaffRow = typeof staff.$inferSelect;

/** What authenticating a request needs to know about its session and staff member. */
export interface SessionForRequest {
  sessionId: number;
  corpId: number;
  /** Epoch milliseconds. */
  expiresAtMs: number;
  revoked: boolean;
  staffId: number;
  staffName: string;
  wecomUserId: string;
  staffActive: boolean;
}

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

    async createSession(input: { tokenHash: string; staffId: number; corpId: number; agentCode: string; expiresAt: Date }) {
      await db.insert(authSessions).values(input);
    },

    /**
     * Runs on every authenticated request, so it is one hand-written statement reading only what
     * the check needs: drizzle's select builder cost about 0.2 ms of server CPU per request
     * (building the joined selection), a sixth of a whole getProfile (docs/benchmarks.md), and
     * a prepared statement skips planning it each time.
     */
    async findSession(tokenHash: string): Promise<SessionForRequest | undefined> {
      const [row] = await selectRows<SessionForRequest>(
        db,
        sql`select s.id::float8 as "sessionId", s.corp_id as "corpId", (extract(epoch from s.expires_at) * 1000)::float8 as "expiresAtMs",
                   s.revoked_at is not null as revoked, st.id as "staffId", st.name as "staffName",
                   st.wecom_user_id as "wecomUserId", st.active as "staffActive"
              from auth_session s join staff st on st.id = s.staff_id
             where s.token_hash = ${tokenHash}
             limit 1`,
        { prepare: true },
      );
      return row;
    },
  };
}

export type AuthRepository = ReturnType<typeof createAuthRepository>;
