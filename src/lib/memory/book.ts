/**
 * Bounded per-agent books: a model can name endless distinct measures in one
 * turn, so every book of keys keeps at most `BOOK_LIMIT` entries, the oldest
 * going first (Maps and Sets iterate in insertion order).
 */

/** Most entries one agent's book keeps in a turn. */
export const BOOK_LIMIT = 4096;

/** Past `limit` entries, the oldest goes. */
function trim(book: Map<string, unknown> | Set<string>, limit = BOOK_LIMIT): void {
  if (book.size <= limit) return;
  // The first key is the oldest; a book past its limit always has one.
  for (const oldest of book.keys()) {
    book.delete(oldest);
    return;
  }
}

/** Records a value as the newest entry of a bounded book (`limit` entries, `BOOK_LIMIT` unless a book keeps fewer). */
export function keep<T>(book: Map<string, T>, key: string, value: T, limit = BOOK_LIMIT): void {
  book.delete(key);
  keepNew(book, key, value, limit);
}

/** `keep` for a key the book does not hold: there is no entry to take out first. */
export function keepNew<T>(book: Map<string, T>, key: string, value: T, limit = BOOK_LIMIT): void {
  book.set(key, value);
  trim(book, limit);
}

/** Records a key as the newest entry of a bounded book. */
export function add(book: Set<string>, key: string): void {
  book.delete(key);
  book.add(key);
  trim(book);
}

/**
 * A few recent digests kept as one string, newest last: books of hundreds of
 * actions each remembering a handful of outcomes cost one string an action
 * rather than an array of them. Digests never hold a newline (result/digest.ts),
 * which separates them.
 */
export type Recent = string;

/** Whether `digest` is among the recent ones: found where a line starts and ends (a lookup in the string, no split and no copy: the books do it per call). */
export function recalls(recent: Recent | undefined, digest: string): boolean {
  // Stryker disable next-line ConditionalExpression: a shortcut: a shorter text holds no digest, and the search finds none
  if (recent === undefined || recent.length < digest.length) return false;
  // Past the end, indexOf('') answers the end again: the search stops there.
  for (let at = recent.indexOf(digest); at !== -1; at = at < recent.length ? recent.indexOf(digest, at + 1) : -1) {
    const end = at + digest.length;
    if ((at === 0 || recent.charCodeAt(at - 1) === 0x0a) && (end === recent.length || recent.charCodeAt(end) === 0x0a)) return true;
  }
  return false;
}

/** Whether `digest` is the newest of the recent ones. */
export function isNewest(recent: Recent | undefined, digest: string): boolean {
  if (recent === undefined) return false;
  if (recent === digest) return true;
  const at = recent.length - digest.length;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: at 0 or before, the character before is NaN, no newline
  return at > 0 && recent.charCodeAt(at - 1) === 0x0a && recent.endsWith(digest);
}

/**
 * The recent digests with `digest` as the newest, at most `kept` of them.
 * `recalled`: whether `recent` recalls `digest` (`recalls`), when the caller asked already: it is not looked for again.
 */
export function remember(recent: Recent | undefined, digest: string, kept: number, recalled?: boolean): Recent {
  if (recent === undefined || recent === '') return digest;
  // Already the newest: nothing moves (a result that comes back the same, the common case). The newest is recalled.
  // Stryker disable next-line ConditionalExpression,EqualityOperator,BooleanLiteral: a shortcut: the newest taken out and put back last leaves the same text
  if (recalled !== false && isNewest(recent, digest)) return recent;
  const others = (recalled ?? recalls(recent, digest)) ? recent.split('\n').filter((known) => known !== digest).join('\n') : recent;
  let joined = `${others}\n${digest}`;
  let count = 1;
  for (let at = joined.indexOf('\n'); at !== -1; at = joined.indexOf('\n', at + 1)) count += 1;
  for (; count > kept; count -= 1) joined = joined.slice(joined.indexOf('\n') + 1);
  return joined;
}
