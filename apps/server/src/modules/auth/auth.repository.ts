import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { authSessions, staff } from '../../db/schema';

export type StaffRow = typeof staff.$inferSelect;

export interface SessionWithStaff {
  sessionId: number;
  corpId: number;
  agentCode: string;
  expiresAt: Date;
  revokedAt: Date | null;
  staff: StaffRow;
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

    async findSession(tokenHash: string): Promise<SessionWithStaff | undefined> {
      const [row] = await db
        .select({ session: authSessions, staff })
        .from(authSessions)
        .innerJoin(staff, eq(staff.id, authSessions.staffId))
        .where(eq(authSessions.tokenHash, tokenHash))
        .limit(1);
      if (!row) return undefined;
      return {
        sessionId: row.session.id,
        corpId: row.session.corpId,
        agentCode: row.session.agentCode,
        expiresAt: row.session.expiresAt,
        revokedAt: row.session.revokedAt,
        staff: row.staff,
      };
    },
  };
}

export type AuthRepository = ReturnType<typeof createAuthRepository>;
