/**
 * Knocks: the model calling again at a gate that is closed. A refused call (a
 * denial, an ask that was not approved, an approval used up at the exemption
 * ceiling) is a knock on the loop its gate keys belong to. A loop is the keys
 * refused together this turn: a refusal whose keys meet keys of an earlier one
 * is the same loop, whatever calls came in between; one that meets two loops
 * joins them (their knocks add up). A refusal that meets none opens a loop.
 *
 * The book says which knock a refusal is, and whether each of its hits (a
 * track's, under a key) was refused before this turn: such a refusal tells
 * the model nothing new, so it points back to the first (text/message.ts),
 * while one with a new hit (a measure reaching its cap, another track's
 * finding) explains in full. `stopAfter` knocks of one loop end the turn
 * (breaker.ts). Per agent, at most `BOOK_LIMIT` keys and hits (the oldest go
 * first, like every book) and `LOOPS_KEPT` loops; a human message clears it.
 */
import type { Agent } from '../host/types.js';
import { own } from '../host/own.js';
import { add, BOOK_LIMIT, keep } from '../memory/book.js';

/** Most loops one agent's book holds in a turn; past it, the loop knocked longest ago is forgotten. */
export const LOOPS_KEPT = 64;

/** One loop of a turn: how many times the gate refused it. */
interface Loop {
  knocks: number;
  /** The loop's latest knock, by the agent's own count: the one knocked longest ago goes first. */
  last: number;
}

interface Book {
  /** Each refused key's loop. */
  readonly loops: Map<string, Loop>;
  /** The hits refused so far (`KnockHit.said`). */
  readonly said: Set<string>;
  /** Knocks so far this turn, every loop's. */
  knocks: number;
}

/** A hit of a refused call: the key it is gated under, and what the texts said of it (its track, and the key). */
export interface KnockHit {
  readonly key: string;
  readonly said: string;
}

/** A refusal as the book counts it. */
export interface Knocked {
  /** Which refusal of its loop this turn it is: 1 for the first. */
  readonly nth: number;
  /** Each of its hits was refused before this turn. */
  readonly seen: boolean;
}

export interface KnockBook {
  /** A refusal, with its hits. */
  knock(agent: Agent, hits: readonly KnockHit[]): Knocked;
  /** A human message: the agent's loops go. */
  reset(agent: Agent): void;
}

/** The loops the hits' keys meet, each once, in the order of the hits. */
function loopsMet(book: Book, hits: readonly KnockHit[]): Loop[] {
  const met: Loop[] = [];
  for (let at = 0; at < hits.length; at += 1) {
    const loop = book.loops.get((hits[at] as KnockHit).key);
    if (loop !== undefined && !met.includes(loop)) met.push(loop);
  }
  return met;
}

/** Whether every hit was refused before (none: no). */
function allSaid(book: Book, hits: readonly KnockHit[]): boolean {
  for (let at = 0; at < hits.length; at += 1) if (!book.said.has((hits[at] as KnockHit).said)) return false;
  return hits.length > 0;
}

/** Every key of `from` moves to `into`: two loops become one. */
function join(book: Book, into: Loop, from: Loop): void {
  into.knocks += from.knocks;
  for (const [key, loop] of book.loops) if (loop === from) book.loops.set(key, into);
}

/** Past `LOOPS_KEPT` loops, the keys of the one knocked longest ago go. */
function forgetOldest(book: Book): void {
  const loops = new Set(book.loops.values());
  if (loops.size <= LOOPS_KEPT) return;
  let oldest: Loop | undefined;
  for (const loop of loops) if (oldest === undefined || loop.last < oldest.last) oldest = loop;
  for (const [key, loop] of book.loops) if (loop === oldest) book.loops.delete(key);
}

function knockOn(book: Book, hits: readonly KnockHit[]): Knocked {
  const seen = allSaid(book, hits);
  const met = loopsMet(book, hits);
  const loop = met[0] ?? { knocks: 0, last: 0 };
  // The loops met after the first join it.
  for (let at = 1; at < met.length; at += 1) join(book, loop, met[at] as Loop);
  book.knocks += 1;
  loop.knocks += 1;
  loop.last = book.knocks;
  for (let at = 0; at < hits.length; at += 1) keep(book.loops, own((hits[at] as KnockHit).key), loop, BOOK_LIMIT);
  for (let at = 0; at < hits.length; at += 1) add(book.said, own((hits[at] as KnockHit).said));
  // Only a new loop can pass the bound, and only by one: it is never the oldest.
  if (met.length < 2 && loop.knocks === 1) forgetOldest(book);
  return { nth: loop.knocks, seen };
}

export function createKnockBook(): KnockBook {
  const books = new WeakMap<Agent, Book>();
  return {
    knock(agent, hits) {
      let book = books.get(agent);
      if (book === undefined) books.set(agent, (book = { loops: new Map(), said: new Set(), knocks: 0 }));
      return knockOn(book, hits);
    },
    reset(agent) {
      books.delete(agent);
    },
  };
}
