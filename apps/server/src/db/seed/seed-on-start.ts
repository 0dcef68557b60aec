import type { DatabaseHandle } from '../client';
import { withSessionLock } from '../advisory-lock';
import { hasCustomers, seedDemoData, type SeedOptions, type SeedResult } from './seed-demo-data';

/** Distinct from the migration lock. */
const DEMO_SEED_LOCK_KEY = 727_002;

type DemoSeedOptions = Required<Pick<SeedOptions, 'customers' | 'corpCode' | 'asOf' | 'log'>>;

/**
 * First start only. Replicas serialise on a session advisory lock; a process without a session to hold it on
 * (a transaction-mode pooler without DATABASE_DIRECT_URL) seeds nothing: no transaction lock covers a seed.
 */
export async function seedDemoDataIfEmpty(handle: DatabaseHandle, options: DemoSeedOptions): Promise<SeedResult | null> {
  if (await hasCustomers(handle)) return null;
  if (handle.kind !== 'postgres') return seedIfStillEmpty(handle, options);
  const locked = await withSessionLock(handle, DEMO_SEED_LOCK_KEY, 'wait', () => seedIfStillEmpty(handle, options));
  if (locked.status === 'ran') return locked.value;
  options.log('database has no customers, but this process has no session to seed under (see the warning above): not seeding');
  return null;
}

async function seedIfStillEmpty(handle: DatabaseHandle, options: DemoSeedOptions): Promise<SeedResult | null> {
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
}
