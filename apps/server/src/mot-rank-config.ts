import { z } from 'zod';
import { MOT_RULES, type MotRule } from '@broker/contract';

/** The ranked day's weights (ADR 0041) per corp, apart from the SQL so the configuration loader needs no database code. */
const weight = z.number().min(0, 'must be at least 0').max(100, 'must be at most 100');

export const motRankConfigSchema = z.strictObject({
  /** Per event type; a type left out weighs its default. */
  typeWeights: z.partialRecord(z.enum(MOT_RULES), weight).optional(),
  /** Lowest first: a client whose assets (HKD) reach `minAssetsHkd` has at least that tier. */
  tiers: z
    .array(z.strictObject({ minAssetsHkd: z.number().min(0), factor: weight }))
    .min(1)
    .max(10)
    .refine((tiers) => tiers[0]?.minAssetsHkd === 0, 'the first tier must start at minAssetsHkd 0')
    .refine(
      (tiers) => tiers.every((tier, index) => index === 0 || tier.minAssetsHkd > tiers[index - 1]!.minAssetsHkd),
      'must be in rising minAssetsHkd order',
    )
    .optional(),
  /** Per day past due, up to `overdueCapDays`. */
  overduePerDay: z.number().min(0).max(10).optional(),
  overdueCapDays: z.number().int().min(0).max(365).optional(),
  /** Per day since the latest contact record, up to `contactCapDays`; never contacted counts as the cap. */
  contactPerDay: z.number().min(0).max(10).optional(),
  contactCapDays: z.number().int().min(0).max(3650).optional(),
});
export type MotRankConfig = z.infer<typeof motRankConfigSchema>;

/** The corp's configuration over the defaults. */
export type MotRankWeights = Required<Omit<MotRankConfig, 'typeWeights'>> & { typeWeights: Record<MotRule, number> };

/** ADR 0041 says why each. */
export const DEFAULT_MOT_RANK_WEIGHTS: MotRankWeights = {
  typeWeights: {
    // An expired risk assessment or ID stops trading (an SFC inspection finding); below zero owes the firm now.
    risk_expiry: 5,
    id_expiry: 5,
    negative_equity: 5,
    particulars_changed_withdrawal: 5,
    vulnerable_client: 4,
    // The client may be leaving; withdrawals are also the fraud case.
    large_withdrawal: 4,
    transfer_out: 4,
    contact_removed: 4,
    follow_up: 3,
    position_loss: 3,
    concentration: 3,
    large_deposit: 2,
    transfer_in: 2,
    unfunded: 2,
    dormant: 1.5,
    birthday: 1.5,
    anniversary: 1,
  },
  // HKD 8 M: the SFC's portfolio threshold for an individual professional investor.
  tiers: [
    { minAssetsHkd: 0, factor: 1 },
    { minAssetsHkd: 1_000_000, factor: 1.5 },
    { minAssetsHkd: 8_000_000, factor: 2 },
  ],
  overduePerDay: 0.1,
  overdueCapDays: 10,
  contactPerDay: 1 / 60,
  contactCapDays: 60,
};

export function rankWeightsOf(config: MotRankConfig | undefined): MotRankWeights {
  const defaults = DEFAULT_MOT_RANK_WEIGHTS;
  return {
    typeWeights: { ...defaults.typeWeights, ...config?.typeWeights },
    tiers: config?.tiers ?? defaults.tiers,
    overduePerDay: config?.overduePerDay ?? defaults.overduePerDay,
    overdueCapDays: config?.overdueCapDays ?? defaults.overdueCapDays,
    contactPerDay: config?.contactPerDay ?? defaults.contactPerDay,
    contactCapDays: config?.contactCapDays ?? defaults.contactCapDays,
  };
}
