/** A risk level as every screen writes it, `R1`–`R5` (never `3`, never 中风险); anything else is `-`, not guessed at. */
export function formatRiskLevel(level: number | string | null | undefined): string {
  const number = typeof level === 'string' ? Number(level.replace(/^R/i, '')) : level;
  return typeof number === 'number' && Number.isInteger(number) && number >= 1 && number <= 5 ? `R${number}` : '-';
}
