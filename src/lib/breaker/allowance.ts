/**
 * The exemption ceiling (opt-in, `exemptionCeiling: N`). An approval exempts a
 * measure for the rest of the turn; with a ceiling it allows N more calls that
 * use the measure, and the next one is denied without asking again. An
 * auto-approving agent can then loop N times per approval, not forever.
 *
 * The book records every approval, counts uses while a ceiling applies, and
 * the ceiling is applied when a call is judged: so the agent's own ceiling
 * decides, and one set mid-turn starts the count again (breaker.ts).
 */
import type { Agent } from '../host/types.js';
import { own } from '../host/own.js';
import { keep } from '../memory/book.js';

export interface AllowanceBook {
  /** Keys just approved: each starts a fresh allowance. */
  grant(agent: Agent, keys: readonly string[]): void;
  /** One call used these exempt keys; keys without an allowance are ignored. */
  spend(agent: Agent, keys: readonly string[]): void;
  /** Whether the key's allowance is used up against `ceiling` (at least 1, so a key never granted never is). */
  isSpent(agent: Agent, key: string, ceiling: number): boolean;
  reset(agent: Agent): void;
}

export function createAllowanceBook(): AllowanceBook {
  // Calls used per approved key, oldest approval first, at most BOOK_LIMIT keys (like the exemption book).
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
    spend(agent, keys) {
      const book = books.get(agent);
      if (book === undefined) return;
      for (const key of new Set(keys)) {
        const used = book.get(key);
        if (used !== undefined) book.set(key, used + 1);
      }
    },
    isSpent: (agent, key, ceiling) => (books.get(agent)?.get(key) ?? 0) >= ceiling,
    reset(agent) {
      books.delete(agent);
    },
  };
}
