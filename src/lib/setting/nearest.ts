/**
 * The known name nearest to a misspelt one, for error messages that say what
 * was probably meant (`onlimit` → `onLimit`). Case is ignored first, then the
 * edit distance decides, and only a close name is offered: a suggestion that
 * has little to do with the typo misleads more than none.
 */

/** Levenshtein distance, two rows; names are short. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, at) => at);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/** The nearest of `known` to `name`, or `undefined` when none is within a third of the name's length (at least 2 edits). */
export function nearestName(name: string, known: readonly string[]): string | undefined {
  // A name this long is no typo of a setting; comparing it would only cost time.
  if (name.length > 64) return undefined;
  const lower = name.toLowerCase();
  const sameCase = known.find((candidate) => candidate.toLowerCase() === lower);
  if (sameCase !== undefined) return sameCase;
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(name.length / 3)) + 1;
  for (const candidate of known) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
