/** WAL positions (`16/B374D848`) as bigints; the one reader of an untrusted one (the read-your-writes cookie, ADR 0052). */
const LSN_PATTERN = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/;

export function parseLsn(text: unknown): bigint | undefined {
  // Bounded before the pattern runs: a cookie can be kilobytes long.
  if (typeof text !== 'string' || text.length > 17) return undefined;
  const match = LSN_PATTERN.exec(text);
  if (!match) return undefined;
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

/** Upper-case hex, no leading zeros. */
export function formatLsn(lsn: bigint): string {
  return `${(lsn >> 32n).toString(16).toUpperCase()}/${(lsn & 0xffffffffn).toString(16).toUpperCase()}`;
}
