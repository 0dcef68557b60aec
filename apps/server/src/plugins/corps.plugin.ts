import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import type { Corp, CorpConfigEntry } from '../corps';
import { corps as corpTable } from '../db/schema';
import { columnName } from '../db/sql-rows';

declare module 'fastify' {
  interface FastifyInstance {
    corps: { byCode(code: string | undefined): Corp | undefined; all(): Corp[] };
  }
}

/** Upserts configured corps and answers look-ups by code from memory. */
async function corpsPlugin(app: FastifyInstance, options: { corps: CorpConfigEntry[] }) {
  const loaded: Corp[] = [];
  for (const entry of options.corps) {
    const [row] = await app.database.db
      .insert(corpTable)
      .values({ code: entry.code, name: entry.name, wecomCorpId: entry.corpId })
      .onConflictDoUpdate({
        target: corpTable.code,
        set: { name: sql`excluded.${columnName(corpTable.name)}`, wecomCorpId: sql`excluded.${columnName(corpTable.wecomCorpId)}` },
      })
      .returning({ id: corpTable.id });
    loaded.push({ ...entry, id: row!.id });
  }
  const byCode = new Map(loaded.map((corp) => [corp.code, corp]));
  app.decorate('corps', { byCode: (code) => (code ? byCode.get(code) : undefined), all: () => loaded });
}

export default fp(corpsPlugin, { name: 'corps', dependencies: ['db'] });
