/**
 * A `codeFilters` statement holds its page in its text, so each page is a statement of its own, and a
 * prepared one keeps its plan and source in its connection's memory. Each process prepares at most
 * this many such texts (the rest are planned per call), which bounds that memory per connection
 * (ADR 0009 has the figures).
 */
export const CODE_FILTER_STATEMENTS = 64;

/** Admits statement keys until `capacity` distinct ones have been seen, then only those. */
export function statementBudget(capacity: number) {
  const admitted = new Set<string>();
  return (key: string) => {
    if (admitted.has(key)) return true;
    if (admitted.size >= capacity) return false;
    admitted.add(key);
    return true;
  };
}
