/*
 * An edit that met a newer version (090409, or a draft restored over one): field by field, a three-way comparison (ADR 0013).
 * Nothing is dropped unseen: a field both changed is the user's choice, one the other side changed is taken and named.
 */

/** For a field both sides changed: keep the user's value, take the saved one, or (text, tags) keep both. */
export type MergeChoice = 'mine' | 'theirs' | 'both';

/** Each field of a record as text that is equal exactly when the values mean the same (trimmed, normalised). */
export type Comparable<F extends string> = Record<F, string>;

export interface EditMerge<F extends string> {
  /** Changed by the user and saved changed meanwhile, to different values: the user chooses. */
  clashes: F[];
  /** Changed only in the version saved meanwhile: taken. */
  taken: F[];
  /** Changed by the user, alone or to what was saved meanwhile too: kept. */
  kept: F[];
}

export function compareEdits<F extends string>(started: Comparable<F>, mine: Comparable<F>, latest: Comparable<F>): EditMerge<F> {
  const merge: EditMerge<F> = { clashes: [], taken: [], kept: [] };
  for (const field of Object.keys(started) as F[]) {
    const minesChanged = mine[field] !== started[field];
    const theirsChanged = latest[field] !== started[field];
    if (minesChanged && theirsChanged && mine[field] !== latest[field]) merge.clashes.push(field);
    else if (minesChanged) merge.kept.push(field);
    else if (theirsChanged) merge.taken.push(field);
  }
  return merge;
}

/** The values to go on editing from: the latest version, the user's changes on top, each clash as chosen (`both` joins the two). */
export function mergeEdits<T extends object, F extends keyof T & string>(
  merge: EditMerge<F>,
  mine: T,
  latest: T,
  choices: Partial<Record<F, MergeChoice>>,
  both: (field: F, theirs: T[F], mine: T[F]) => T[F],
): T {
  const result = { ...latest };
  for (const field of merge.kept) result[field] = mine[field];
  for (const field of merge.clashes) {
    const choice = choices[field] ?? 'theirs';
    if (choice === 'mine') result[field] = mine[field];
    else if (choice === 'both') result[field] = both(field, latest[field], mine[field]);
  }
  return result;
}

/** Two texts kept together: the saved one, then the user's on a line of its own (once, if one already holds the other). */
export function bothTexts(theirs: string, mine: string): string {
  const [saved, typed] = [theirs.trim(), mine.trim()];
  if (typed.includes(saved)) return mine;
  if (saved.includes(typed)) return theirs;
  return `${saved}\n${typed}`;
}

/** Two lists kept together: the saved one, then what only the user's has, in its order. */
export const bothLists = (theirs: readonly string[], mine: readonly string[]): string[] => [
  ...theirs,
  ...mine.filter((item) => !theirs.includes(item)),
];
