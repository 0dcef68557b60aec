import type { DatabaseHandle } from '../client';
import { hasCustomers, seedDemoData, type SeedResult } from './seed-demo-data';

/** Any stable number; distinct from the migration lock. */
const DEMO_SEED_LOCK_KEY = 727_002;

export interface DemoSeedOptions {
  customers: number;
  corpCode: string;
  asOf: string;
  log: (message: string) => void;
}

/**
 * First start only: fills a database that has no customers. Replicas starting together on one
 * PostgreSQL serialise on an advisory lock, and the loser finds customers and does nothing.
 */
export async function seedDemoDataIfEmpty(handle: DatabaseHandle, options: DemoSeedOptions): Promise<SeedResult | null> {
  const lockClient = handle.kind === 'postgres' ? await handle.sessionPool!.connect() : null;
  try {
    await lockClient?.query('select pg_advisory_lock($1)', [DEMO_SEED_LOCK_KEY]);
    if (await hasCustomers(handle)) return null;
    options.log(`database has no customers: seeding ${options.customers} demo customers`);
    let reported = 0;
    const result = await seedDemoData(handle, {
      customers: options.customers,
      seed: 1,
      staff: 10,
      asOf: options.asOf,
      corpCode: options.corpCode,
      log: options.log,
      onProgress: (done, total) => {
        if (done - reported >= total / 4 || done === total) {
          reported = done;
          options.log(`demo seed: ${done}/${total} customers`);
        }
      },
    });
    options.log(
      `demo data ready in ${(result.elapsedMs / 1000).toFixed(1)} s: ${result.customers} customers, ${result.staff} staff, ${result.trades} trades, ${result.moneyMovements} money movements, ${result.transfers} transfers`,
    );
    return result;
  } finally {
    await lockClient?.query('select pg_advisory_unlock($1)', [DEMO_SEED_LOCK_KEY]).catch(() => undefined);
    lockClient?.release();
  }
}
