/**
 * Every number the MOT rules use, in one place (docs/mot.md explains each). Days are calendar
 * days in Hong Kong time. The large deposit / withdrawal threshold is not here: it is each staff
 * member's own `staff.min_cash_io` (HKD), set with setMinCashIO.
 */
export const MOT_THRESHOLDS = {
  /** Birthday: raise the event this many days before the birthday (and on the day). */
  birthdayLookaheadDays: 7,
  /** Account anniversary (1 year or more since opening): days ahead. */
  anniversaryLookaheadDays: 7,
  /** Large deposit / withdrawal and stock transfers: only movements this recent fire (a first sweep must not replay years). */
  movementLookbackDays: 7,
  /** Dormant: no trade (or, never traded, no trade since opening) for this many days. */
  dormantDays: 180,
  /** … crossed at most this many days ago: a first sweep does not raise every long-dormant client. */
  dormantLookbackDays: 30,
  /** Large position loss: last price at least this % below the average cost … */
  positionLossPct: 20,
  /** … and the paper loss at least this much, in HKD. */
  positionLossMinHkd: 50_000,
  /** Opened but not funded: no deposit or stock transfer in this many days after opening … */
  unfundedAfterDays: 14,
  /** … checked until the account is this old (older unfunded accounts are not news). */
  unfundedMaxAgeDays: 90,
  /** Identity document and risk assessment: fire when the expiry is this close … */
  expiryLookaheadDays: 30,
  /** … or passed at most this many days ago. */
  expiryLookbackDays: 30,
  /** A risk assessment is valid for this many years after `risk_assessed_on`. */
  riskAssessmentValidYears: 2,
  /** … and a final warning this many days before the expiry (`expiryLookaheadDays` is the first one; ADR 0043). */
  expiryFinalWarningDays: 7,
  /** Negative equity (net assets below zero): raised again at most this often while it lasts, and never while one is pending. */
  negativeEquityRepeatDays: 7,
  /** Concentration: one position is more than this % of the client's assets (holdings at market plus cash in credit) … */
  concentrationMinSharePct: 50,
  /** … and worth at least this much, in HKD: a small book that is all one stock is not a risk worth a call. */
  concentrationMinPositionHkd: 1_000_000,
  /** Particulars changed, then a large withdrawal: an edit of these profile fields (the `customer.update` audit row) … */
  particularsFields: ['phone', 'email'],
  /** … on any of this many days before the withdrawal's day, or that day before it. */
  particularsChangeWithinDays: 14,
  /** Vulnerable client: aged this many years or more (on the as-of day). */
  vulnerableMinAge: 65,
} as const;
