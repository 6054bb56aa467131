/**
 * Progress-aware gating (opt-in, `progress: results`). A poll that keeps
 * returning new data is progress, not a loop: while the results of an action
 * measure's recent calls differ, a repeat gate on that measure is held back.
 * Each settled call leaves one short digest per action measure (result/digest.ts
 * `resultDigest`, the `RESULTS` notion); the window of digests is the agent's
 * last `window` calls that ran.
 */
import type { Agent } from '../host/types.js';
import { measureOf } from '../call/fingerprint.js';
import { own } from '../host/own.js';

/** Every measure that names an action (what ran), as opposed to a target (host, site) or a family. */
const ACTION_MEASURES = new Set(['exact', 'cmd', 'act', 'net', 'sink']);

export function isActionKey(key: string): boolean {
  return ACTION_MEASURES.has(measureOf(key));
}

/** A call that ran, as the ring keeps it. */
interface Digested {
  readonly keys: readonly string[];
  readonly digest: string;
}

interface Book {
  /** The agent's last calls that ran, oldest first. */
  readonly ring: Digested[];
  /** Per key, how many of those calls returned each digest. */
  readonly tally: Map<string, Map<string, number>>;
}

export interface ProgressBook {
  /** A call that ran: its action keys and the digest of its result; past `window` (the book's, or the agent's own) the oldest go. */
  record(agent: Agent, keys: readonly string[], digest: string, window?: number): void;
  /** Whether the key's results in the window are not all the same (two or more known, and they differ). */
  varied(agent: Agent, key: string): boolean;
  reset(agent: Agent): void;
}

export function createProgressBook(fixedWindow: number): ProgressBook {
  const books = new WeakMap<Agent, Book>();
  return {
    record(agent, keys, digest, window = fixedWindow) {
      if (keys.length === 0) return;
      let book = books.get(agent);
      if (book === undefined) {
        book = { ring: [], tally: new Map() };
        books.set(agent, book);
      }
      const owned = [...new Set(keys)].map(own);
      for (const key of owned) {
        let digests = book.tally.get(key);
        if (digests === undefined) {
          digests = new Map();
          book.tally.set(key, digests);
        }
        digests.set(digest, (digests.get(digest) ?? 0) + 1);
      }
      book.ring.push({ keys: owned, digest });
      while (book.ring.length > window) {
        const oldest = book.ring.shift() as Digested;
        for (const key of oldest.keys) {
          const digests = book.tally.get(key);
          // Stryker disable next-line ConditionalExpression: every key of a call in the ring has its tally until that call leaves
          if (digests === undefined) continue;
          const left = (digests.get(oldest.digest) ?? 0) - 1;
          if (left > 0) digests.set(oldest.digest, left);
          else digests.delete(oldest.digest);
          // Stryker disable next-line ConditionalExpression: an empty tally reads as an absent one; dropping it only frees memory
          if (digests.size === 0) book.tally.delete(key);
        }
      }
    },
    varied: (agent, key) => (books.get(agent)?.tally.get(key)?.size ?? 0) > 1,
    reset(agent) {
      books.delete(agent);
    },
  };
}
