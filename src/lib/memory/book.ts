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
 * A few recent digests, newest last: the digests themselves (a call's digest
 * is one string, shared by every book that keeps it), one alone as it is and
 * more as a list, never changed in place, so that keys with the same history
 * share it. It changes only when something new comes in: a result that comes
 * back the same, the common case, allocates nothing.
 */
export type Recent = string | readonly string[];

/** Whether `digest` is among the recent ones. */
export function recalls(recent: Recent | undefined, digest: string): boolean {
  if (recent === undefined || typeof recent === 'string') return recent === digest;
  for (let at = recent.length - 1; at >= 0; at -= 1) if (recent[at] === digest) return true;
  return false;
}

/** Whether `digest` is the newest of the recent ones. */
export function isNewest(recent: Recent | undefined, digest: string): boolean {
  if (recent === undefined || typeof recent === 'string') return recent === digest;
  return recent.length > 0 && recent[recent.length - 1] === digest;
}

/** The recent digests with `digest` as the newest, at most `kept` of them. */
export function remember(recent: Recent | undefined, digest: string, kept: number): Recent {
  if (recent === undefined || recent.length === 0) return digest;
  // Already the newest: nothing moves (a result that comes back the same, the common case).
  if (isNewest(recent, digest)) return recent;
  const known: readonly string[] = typeof recent === 'string' ? [recent] : recent;
  let others = 0;
  for (let at = 0; at < known.length; at += 1) if (known[at] !== digest) others += 1;
  // The oldest go first: of the others, only the newest `kept - 1` stay.
  let skip = others - (kept - 1);
  const next: string[] = [];
  for (let at = 0; at < known.length; at += 1) {
    const one = known[at] as string;
    if (one === digest) continue;
    if (skip > 0) skip -= 1;
    else next.push(one);
  }
  if (next.length === 0) return digest;
  next.push(digest);
  return next;
}

/**
 * A few recent lookup keys kept as the lines of one string, newest last: the
 * timeout track's spellings, read as they always were (a lookup key is four
 * code units of a hash, one of which may be a line break: this reading splits
 * there, and changing the reading would change which spellings count).
 */
export type RecentLines = string;

/** Whether `line` is among the recent ones: found where a line starts and ends (a lookup in the string, no split and no copy). */
export function recallsLine(recent: RecentLines | undefined, line: string): boolean {
  if (recent === undefined || recent.length < line.length) return false;
  // Past the end, indexOf('') answers the end again: the search stops there.
  for (let at = recent.indexOf(line); at !== -1; at = at < recent.length ? recent.indexOf(line, at + 1) : -1) {
    const end = at + line.length;
    if ((at === 0 || recent.charCodeAt(at - 1) === 0x0a) && (end === recent.length || recent.charCodeAt(end) === 0x0a)) return true;
  }
  return false;
}

/** The recent lines with `line` as the newest, at most `kept` of them. */
export function rememberLine(recent: RecentLines | undefined, line: string, kept: number): RecentLines {
  if (recent === undefined || recent === '') return line;
  // Already the newest: nothing moves.
  if (recent === line || (recent.length > line.length && recent.charCodeAt(recent.length - line.length - 1) === 0x0a && recent.endsWith(line))) return recent;
  const others = recallsLine(recent, line) ? recent.split('\n').filter((known) => known !== line).join('\n') : recent;
  let joined = `${others}\n${line}`;
  let count = 1;
  for (let at = joined.indexOf('\n'); at !== -1; at = joined.indexOf('\n', at + 1)) count += 1;
  for (; count > kept; count -= 1) joined = joined.slice(joined.indexOf('\n') + 1);
  return joined;
}
