import { z } from 'zod';

/**
 * Seeding a million customers takes minutes, so the benchmark database remembers what was loaded into it in its COMMENT
 * (no table of ours, nothing a migration or schema check would see): a run reuses it when the marker names the dataset.
 */

const markerSchema = z.object({
  customers: z.number(),
  seed: z.number(),
  asOf: z.string(),
  staff: z.number(),
  /** Migrations applied when the data was loaded (later ones add indexes, not data). */
  migrations: z.number(),
  seededAt: z.string().catch(''),
  /** `seeded` by the benchmark, or `adopted` from a database seeded by `npm run seed`. */
  origin: z.enum(['seeded', 'adopted']).catch('seeded'),
});
export type DatasetMarker = z.infer<typeof markerSchema>;
/** What makes two loads identical: the generator is deterministic per these. */
export type DatasetIdentity = Pick<DatasetMarker, 'customers' | 'seed' | 'asOf' | 'staff'>;

const PREFIX = 'broker-bench dataset ';

export const formatMarker = (marker: DatasetMarker) => PREFIX + JSON.stringify(marker);

/** The marker in a database comment, or null for no comment, another comment or a malformed one. */
export function parseMarker(comment: string | null | undefined): DatasetMarker | null {
  if (!comment?.startsWith(PREFIX)) return null;
  try {
    return markerSchema.safeParse(JSON.parse(comment.slice(PREFIX.length))).data ?? null;
  } catch {
    return null;
  }
}

export interface DatasetObservation {
  /** Customers in the database now. */
  customers: number;
  /** The generator's last price date (its as-of day when that is a weekday), or null without data. */
  priceDate: string | null;
}

export type DatasetDecision = { action: 'reuse' | 'adopt' | 'seed'; reason: string };

const describe = (identity: DatasetIdentity) =>
  `${identity.customers.toLocaleString('en')} customers, seed ${identity.seed}, as of ${identity.asOf}, ${identity.staff} staff`;

/** Reuse a database whose marker names the dataset; adopt an unmarked one of its size and day (`npm run seed`); else load. */
export function decideDataset(input: {
  wanted: DatasetIdentity;
  marker: DatasetMarker | null;
  observed: DatasetObservation;
  migrations: number;
  reseed: boolean;
}): DatasetDecision {
  const { wanted, marker, observed } = input;
  if (input.reseed) return { action: 'seed', reason: '--reseed given' };
  if (marker) {
    const differing = (['customers', 'seed', 'asOf', 'staff'] as const).filter((key) => marker[key] !== wanted[key]);
    if (differing.length > 0)
      return { action: 'seed', reason: `it holds ${describe(marker)} (differs in ${differing.join(', ')}); wanted ${describe(wanted)}` };
    if (observed.customers !== wanted.customers)
      return {
        action: 'seed',
        reason: `its marker names ${describe(marker)} but it has ${observed.customers.toLocaleString('en')} customers now`,
      };
    const newer = input.migrations - marker.migrations;
    return {
      action: 'reuse',
      reason: `it already holds ${describe(marker)} (${marker.origin} ${marker.seededAt || 'earlier'})${newer > 0 ? `; ${newer} newer migration(s) applied on top` : ''}`,
    };
  }
  if (observed.customers === 0) return { action: 'seed', reason: 'it has no customers' };
  if (observed.customers === wanted.customers && observed.priceDate === wanted.asOf)
    return {
      action: 'adopt',
      reason: `no marker, but it has ${observed.customers.toLocaleString('en')} customers priced as of ${observed.priceDate} (seed taken on trust)`,
    };
  return {
    action: 'seed',
    reason: `no marker, and it has ${observed.customers.toLocaleString('en')} customers priced as of ${observed.priceDate ?? 'never'}`,
  };
}
