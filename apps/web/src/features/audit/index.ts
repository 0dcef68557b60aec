/** The signed-in staff member's own audit trail ("My activity"), reached from the top bar's sheet. */
export const auditPages = {
  auditTrail: () => import('./audit-trail-page'),
};

export const AUDIT_TRAIL_PATH = '/me/audit';
