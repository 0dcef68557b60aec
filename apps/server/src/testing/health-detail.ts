/**
 * The HEALTH_DETAIL_TOKEN the suites' servers start with (`startTestApp`, `startServerProcess`), and the
 * header that shows /readyz's details with it (ADR 0054). Without the header /readyz says only ready or not.
 */
export const TEST_HEALTH_DETAIL_TOKEN = 'suite-health-detail-token-not-a-secret-0123456789';
export const healthDetailHeaders = { authorization: `Bearer ${TEST_HEALTH_DETAIL_TOKEN}` } as const;
