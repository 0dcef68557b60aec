/**
 * PostgreSQL's write-ahead-log positions (`pg_lsn`, written `16/B374D848`) as bigints, so they
 * compare. The one reader of an LSN that came from outside (the read-your-writes cookie, ADR 0052):
 * anything that is not exactly two hex numbers of at most eight digits each is refused.
 */
const LSN_PATTERN = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/;

/** The position, or undefined for anything that is not a `pg_lsn` as PostgreSQL writes it. */
export function parseLsn(text: unknown): bigint | undefined {
  // Bounded before the pattern runs: a cookie can be kilobytes long.
  if (typeof text !== 'string' || text.length > 17) return undefined;
  const match = LSN_PATTERN.exec(text);
  if (!match) return undefined;
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

/** As PostgreSQL writes it: upper-case hex, no leading zeros. */
export function formatLsn(lsn: bigint): string {
  return `${(lsn >> 32n).toString(16).toUpperCase()}/${(lsn & 0xffffffffn).toString(16).toUpperCase()}`;
}
