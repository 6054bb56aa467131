/**
 * The exemption ceiling (opt-in, `exemptionCeiling: N`). An approval exempts a
 * measure for the rest of the turn; under a ceiling the exemption covers N
 * more calls that use the measure, and the next one is denied without asking
 * again. An auto-approving agent can then loop N times per approval, not
 * forever.
 *
 * The book records every approval and counts the calls each exemption has
 * covered while a ceiling applies; the ceiling itself is applied when a call
 * is judged, so the agent's own ceiling decides, and one set mid-turn starts
 * the count again (breaker.ts).
 */
import type { Agent } from '../host/types.js';
import { own } from '../host/own.js';
import { keep } from '../memory/book.js';

export interface CeilingBook {
  /** Keys just approved: each exemption starts counting from zero. */
  grant(agent: Agent, keys: readonly string[]): void;
  /** One call used these exempt keys; keys never approved are ignored. */
  use(agent: Agent, keys: readonly string[]): void;
  /** Whether the key's exemption has covered `ceiling` calls (at least 1, so a key never approved never has). */
  reached(agent: Agent, key: string, ceiling: number): boolean;
  reset(agent: Agent): void;
}

export function createCeilingBook(): CeilingBook {
  // Calls covered per approved key, oldest approval first, at most BOOK_LIMIT keys (like the exemption book).
  const books = new WeakMap<Agent, Map<string, number>>();
  return {
    grant(agent, keys) {
      let book = books.get(agent);
      if (book === undefined) {
        book = new Map();
        books.set(agent, book);
      }
      for (const key of keys) keep(book, own(key), 0);
    },
    use(agent, keys) {
      const book = books.get(agent);
      if (book === undefined) return;
      for (const key of new Set(keys)) {
        const used = book.get(key);
        if (used !== undefined) book.set(key, used + 1);
      }
    },
    reached: (agent, key, ceiling) => (books.get(agent)?.get(key) ?? 0) >= ceiling,
    reset(agent) {
      books.delete(agent);
    },
  };
}
