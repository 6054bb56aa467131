/**
 * The last few readings of one kind, by the text they were read from. A loop
 * is the same command or URL again, so reading it again is the commonest work
 * the guard does; a reading depends only on its text and a resolved
 * configuration, which never changes, so it can be handed back as it was.
 *
 * Bounded twice over: at most `RECENT_LIMIT` texts per configuration, the least
 * recently read going first, and only texts up to `RECENT_TEXT_LIMIT`
 * characters, so a huge command is never held (P6).
 */

export const RECENT_LIMIT = 16;
export const RECENT_TEXT_LIMIT = 1024;

export interface Recent<T> {
  /**
   * The reading held for `text` (now the most recently read), or `undefined`…
   * (in two steps, so that a hot caller makes no reader closure for every text, read or not)
   */
  known(text: string): T | undefined;
  /** …and then the reading made for it, held (a short text's) and handed back. */
  keep(text: string, made: T): T;
}

export function createRecent<T>(): Recent<T> {
  const held = new Map<string, T>();
  /** The text read last, already last in `held`: a loop reads it again, and it need not be moved. */
  let newest: string | undefined;
  const known = (text: string): T | undefined => {
    // Stryker disable next-line EqualityOperator: whether a text of exactly the limit is remembered changes memory, not the reading
    if (text.length > RECENT_TEXT_LIMIT) return undefined;
    const found = held.get(text);
    // Stryker disable next-line ConditionalExpression: moving the newest text to the end leaves the order as it was
    if (found !== undefined && text !== newest) {
      // Most recently read goes last: a Map iterates in insertion order.
      held.delete(text);
      held.set(text, found);
      newest = text;
    }
    return found;
  };
  const keep = (text: string, made: T): T => {
    // Stryker disable next-line EqualityOperator: whether a text of exactly the limit is remembered changes memory, not the reading
    if (text.length > RECENT_TEXT_LIMIT) return made;
    held.set(text, made);
    newest = text;
    if (held.size > RECENT_LIMIT) held.delete(held.keys().next().value as string);
    return made;
  };
  return {
    known,
    keep,
  };
}

/** One `Recent` per configuration object, made on first use and gone with it. */
export function recentPer<T>(): (owner: object) => Recent<T> {
  const books = new WeakMap<object, Recent<T>>();
  return (owner) => {
    let book = books.get(owner);
    // Stryker disable next-line ConditionalExpression: a fresh memory each time forgets, and reading again gives the same reading
    if (book === undefined) books.set(owner, (book = createRecent<T>()));
    return book;
  };
}
