import { and, eq, sql } from 'drizzle-orm';
import { MAX_RECENT_CLIENTS, MAX_RECENT_SEARCHES } from '@broker/contract';
import type { Database, Tx } from '../../db/client';
import type { StaffScope } from '../../http/caller';
import { customers, staff, staffPinnedClients, staffRecents, staffSavedFilters } from '../../db/schema';
import { epochMs, float8, rowsQuery, selectQuery, selection, selectRows, tableAlias, tableAs } from '../../db/sql-rows';

/*
 * Pins, recents and saved filters (ADR 0049). Reads join the client on the caller's scope, so a client moved to
 * a colleague drops out without clean-up; writes check the owner first.
 */
const c = tableAlias(customers, 'c');
const p = tableAlias(staffPinnedClients, 'p');
const r = tableAlias(staffRecents, 'r');
const f = tableAlias(staffSavedFilters, 'f');

const clientColumns = { customerId: float8(c.id), customerNo: c.customerNo, nameCn: c.nameCn, nameEn: c.nameEn };
const pinnedColumns = selection({ ...clientColumns, at: epochMs(p.pinnedAt) });
const recentClientColumns = selection({ ...clientColumns, at: epochMs(r.usedAt) });
const filterColumns = selection({ filterId: float8(f.id), name: f.name, filters: f.filters, updatedAt: epochMs(f.updatedAt) });

export function createShortcutsRepository(db: Database) {
  const inBook = (scope: StaffScope) => sql`${c.corpId} = ${scope.corpId} and ${c.staffId} = ${scope.staffId}`;

  const pinnedOf = (tx: Pick<Database, 'execute'>, scope: StaffScope) =>
    selectRows(
      tx,
      selectQuery(
        pinnedColumns,
        sql`from ${tableAs(p)} join ${tableAs(c)} on ${c.id} = ${p.customerId} and ${inBook(scope)}
            where ${p.staffId} = ${scope.staffId} order by ${p.pinnedAt} desc, ${c.id}`,
      ),
    );

  const recentClientsOf = (tx: Pick<Database, 'execute'>, scope: StaffScope) =>
    selectRows(
      tx,
      selectQuery(
        recentClientColumns,
        sql`from ${tableAs(r)} join ${tableAs(c)} on ${c.id} = ${r.value}::bigint and ${inBook(scope)}
            where ${r.staffId} = ${scope.staffId} and ${r.kind} = 'client' order by ${r.usedAt} desc limit ${MAX_RECENT_CLIENTS}`,
      ),
    );

  const recentSearchesOf = async (tx: Pick<Database, 'execute'>, scope: StaffScope) =>
    (
      await selectRows(
        tx,
        rowsQuery<{ value: string }>(
          sql`select ${r.value} as value from ${tableAs(r)} where ${r.staffId} = ${scope.staffId} and ${r.kind} = 'search'
              order by ${r.usedAt} desc limit ${MAX_RECENT_SEARCHES}`,
        ),
      )
    ).map((row) => row.value);

  /** A count then an insert stays under its cap. */
  const lockStaff = (tx: Tx, scope: StaffScope) => tx.execute(sql`select 1 from ${staff} where ${staff.id} = ${scope.staffId} for update`);

  const trimRecents = (tx: Tx, scope: StaffScope, kind: 'client' | 'search', keep: number) =>
    tx.execute(
      sql`delete from ${staffRecents} where ${staffRecents.staffId} = ${scope.staffId} and ${staffRecents.kind} = ${kind}
          and ${staffRecents.value} not in (
            select ${r.value} from ${tableAs(r)} where ${r.staffId} = ${scope.staffId} and ${r.kind} = ${kind}
            order by ${r.usedAt} desc limit ${keep})`,
    );

  const touchRecent = (tx: Tx, scope: StaffScope, kind: 'client' | 'search', value: string) =>
    tx
      .insert(staffRecents)
      .values({ corpId: scope.corpId, staffId: scope.staffId, kind, value })
      .onConflictDoUpdate({ target: [staffRecents.staffId, staffRecents.kind, staffRecents.value], set: { usedAt: sql`now()` } });

  const filtersOf = (tx: Pick<Database, 'execute'>, scope: StaffScope, where = sql``) =>
    selectRows(
      tx,
      selectQuery(filterColumns, sql`from ${tableAs(f)} where ${f.staffId} = ${scope.staffId} ${where} order by ${f.name}, ${f.id}`),
    );

  return {
    /** Null: no such client here. */
    async ownerOf(corpId: number, customerId: number): Promise<number | null> {
      const [row] = await selectRows(
        db,
        rowsQuery<{ staffId: number }>(
          sql`select ${c.staffId} as "staffId" from ${tableAs(c)} where ${c.corpId} = ${corpId} and ${c.id} = ${customerId}`,
        ),
      );
      return row?.staffId ?? null;
    },

    async all(scope: StaffScope) {
      const [pinned, recentClients, recentSearches, savedFilters] = await Promise.all([
        pinnedOf(db, scope),
        recentClientsOf(db, scope),
        recentSearchesOf(db, scope),
        filtersOf(db, scope),
      ]);
      return { pinned, recentClients, recentSearches, savedFilters };
    },

    /** `refuse` sees the count of pins (under the staff lock) and may throw. */
    async setPin(scope: StaffScope, customerId: number, pinned: boolean, refuse: (count: number) => void) {
      return db.transaction(async (tx) => {
        await lockStaff(tx, scope);
        if (pinned) {
          const [already] = await selectRows(
            tx,
            rowsQuery<{ count: number }>(
              sql`select count(*)::float8 as count from ${staffPinnedClients} where ${staffPinnedClients.staffId} = ${scope.staffId}
                  and ${staffPinnedClients.customerId} = ${customerId}`,
            ),
          );
          if (!already?.count) {
            // Counted in the book only: a pin of a client handed to a colleague takes no place.
            const current = await pinnedOf(tx, scope);
            refuse(current.length);
            await tx.insert(staffPinnedClients).values({ corpId: scope.corpId, staffId: scope.staffId, customerId }).onConflictDoNothing();
          }
        } else {
          await tx
            .delete(staffPinnedClients)
            .where(and(eq(staffPinnedClients.staffId, scope.staffId), eq(staffPinnedClients.customerId, customerId)));
        }
        return pinnedOf(tx, scope);
      });
    },

    async recordOpened(scope: StaffScope, customerId: number, keyword: string | undefined) {
      return db.transaction(async (tx) => {
        await lockStaff(tx, scope);
        await touchRecent(tx, scope, 'client', String(customerId));
        await trimRecents(tx, scope, 'client', MAX_RECENT_CLIENTS);
        if (keyword) {
          await touchRecent(tx, scope, 'search', keyword);
          await trimRecents(tx, scope, 'search', MAX_RECENT_SEARCHES);
        }
      });
    },

    async forgetSearches(scope: StaffScope, keyword: string | undefined) {
      await db
        .delete(staffRecents)
        .where(
          and(
            eq(staffRecents.staffId, scope.staffId),
            eq(staffRecents.kind, 'search'),
            keyword === undefined ? undefined : eq(staffRecents.value, keyword),
          ),
        );
      return recentSearchesOf(db, scope);
    },

    /** No `filterId`: creates. `check` sees the manager's filters before anything is written. */
    async saveFilter(
      scope: StaffScope,
      input: { filterId?: number; name: string; filters?: unknown },
      check: (existing: { filterId: number; name: string }[]) => void,
    ) {
      return db.transaction(async (tx) => {
        await lockStaff(tx, scope);
        check(await filtersOf(tx, scope));
        let id = input.filterId;
        if (id === undefined) {
          const [inserted] = await tx
            .insert(staffSavedFilters)
            .values({ corpId: scope.corpId, staffId: scope.staffId, name: input.name, filters: input.filters })
            .returning({ id: staffSavedFilters.id });
          id = inserted!.id;
        } else {
          await tx
            .update(staffSavedFilters)
            .set({ name: input.name, ...(input.filters === undefined ? {} : { filters: input.filters }), updatedAt: sql`now()` })
            .where(and(eq(staffSavedFilters.id, id), eq(staffSavedFilters.staffId, scope.staffId)));
        }
        const [row] = await filtersOf(tx, scope, sql`and ${f.id} = ${id}`);
        return row!;
      });
    },

    async deleteFilter(scope: StaffScope, filterId: number) {
      const deleted = await db
        .delete(staffSavedFilters)
        .where(and(eq(staffSavedFilters.id, filterId), eq(staffSavedFilters.staffId, scope.staffId)))
        .returning({ id: staffSavedFilters.id });
      return deleted.length > 0;
    },
  };
}

export type ShortcutsRepository = ReturnType<typeof createShortcutsRepository>;
