/**
 * One agent's turn as the breaker keeps it, in a WeakMap keyed by the agent
 * object: one agent's loop never trips another's, and the state goes when the
 * agent does. The window holds the keys of the last `window` committed calls
 * (identity keys, P6); the exemption and refusal books hold at most
 * `BOOK_LIMIT` keys each. Tracks read counts and exemptions (`Shared`); only
 * the breaker writes.
 */
import type { Agent } from '../host/types.js';
import { own } from '../host/own.js';
import { add } from './book.js';
import { createOutcomeMemory, type OutcomeMemory } from './outcomes.js';

/** One key's occurrences in the window; `key` is the stored copy, shared by every call that spent it. */
interface Entry {
  readonly key: string;
  count: number;
  /** The commit that last counted it: a key listed twice by one call counts once (P4). */
  stamp: number;
}

interface Turn {
  /** Committed calls, oldest first: each the entries of the keys it spent. */
  readonly calls: Entry[][];
  /** Occurrences per key across `calls`, kept in step with it. */
  readonly tally: Map<string, Entry>;
  readonly exempt: Set<string>;
  readonly refused: Set<string>;
  /** Head of the last settled result of a call that ran. */
  lastResult: string;
}

/** What a track may read of the agent's turn; only the breaker writes it. */
/** Occurrences per key in an agent's window, before the current call: read once for all of a call's keys. */
export type Tally = ReadonlyMap<string, { readonly count: number }>;

const NO_TALLY: Tally = new Map();

export interface Shared {
  /** The agent's occurrences of every key in its window, before the current call: a track reads all of a call's keys in it. */
  tally(agent: Agent): Tally;
  /** Whether the operator has exempted the key this turn. */
  isExempt(agent: Agent, key: string): boolean;
  /** The keys the operator has exempted this turn, `null` for none (most turns): one look for all of a call's keys. */
  exemptions(agent: Agent): ReadonlySet<string> | null;
  /**
   * How many calls have changed the workspace so far (call/change.ts), any
   * agent's: the agents of a session share one workspace. Two readings that
   * differ mean a file changed in between. Counted only for calls whose
   * policy turns on a track that needs changes (`meta.needs`).
   */
  changes(agent: Agent): number;
  /** What each action of the agent's turn has returned, and its failure streaks: the tracks write and ask it (outcomes.ts). */
  readonly outcomes: OutcomeMemory;
}
export interface Turns extends Shared {
  /**
   * Records one call's keys (exempt ones are dropped; nothing left, no slot taken).
   * `window` is the agent's own when settings changed mid-turn; the oldest calls beyond it go.
   */
  commit(agent: Agent, keys: readonly (string | Keyed)[], window?: number): void;
  exempt(agent: Agent, keys: readonly string[]): void;
  /** The keys the agent holds an exemption for, oldest approval first. */
  exempted(agent: Agent): readonly string[];
  isRefused(agent: Agent, key: string): boolean;
  refuse(agent: Agent, keys: readonly string[]): void;
  lastResult(agent: Agent): string;
  setLastResult(agent: Agent, text: string): void;
  /**
   * A call changed the workspace (`Shared.changes`), unless it is the very call
   * (its `exact:` key) that made the last change: the same write again leaves
   * the files as they were (`sed -i 's/a/b/' f` twice, one file rewritten whole twice).
   */
  noteChange(exact: string): void;
  /** A human message: the window, exemptions, refusals and the outcome memory all go. */
  reset(agent: Agent): void;
}

let commits = 0;

/** A key, or what carries one (a mark): a call's marks are committed without a list of their keys. */
export type Keyed = { readonly key: string };

function commitKeys(turn: Turn, keys: readonly (string | Keyed)[], window: number): void {
  // Stryker disable next-line AssignmentOperator: a stamp only has to differ from the last one; counting down does too
  const stamp = (commits += 1);
  const record: Entry[] = [];
  // Most turns approve nothing: no key is looked up in an empty book.
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a shortcut: an empty book has no key
  const exempt = turn.exempt.size > 0 ? turn.exempt : null;
  for (let at = 0; at < keys.length; at += 1) {
    const item = keys[at] as string | Keyed;
    const key = typeof item === 'string' ? item : item.key;
    if (exempt !== null && exempt.has(key)) continue;
    let entry = turn.tally.get(key);
    if (entry === undefined) {
      // A new key is copied once: cut from a huge fingerprint, it would keep it alive (P6).
      entry = { key: own(key), count: 0, stamp: 0 };
      turn.tally.set(entry.key, entry);
    }
    if (entry.stamp === stamp) continue;
    entry.stamp = stamp;
    entry.count += 1;
    record.push(entry);
  }
  if (record.length === 0) return;
  turn.calls.push(record);
  while (turn.calls.length > window) {
    for (const entry of turn.calls.shift() as Entry[]) {
      entry.count -= 1;
      // Stryker disable next-line ConditionalExpression: an entry at 0 counts as an absent one; dropping it only frees memory
      if (entry.count === 0) turn.tally.delete(entry.key);
    }
  }
}

function addAll(book: Set<string>, keys: readonly string[]): void {
  for (const key of keys) add(book, own(key));
}

export function createTurns(fixedWindow: number): Turns {
  const turns = new WeakMap<Agent, Turn>();
  // The agents of a session share one workspace, so a change by any of them is a change for all.
  let changes = 0;
  let lastChange: string | null = null;
  const outcomes = createOutcomeMemory();
  const turnOf = (agent: Agent): Turn => {
    let found = turns.get(agent);
    if (found === undefined) {
      found = { calls: [], tally: new Map(), exempt: new Set(), refused: new Set(), lastResult: '' };
      turns.set(agent, found);
    }
    return found;
  };
  /** The agent's exempted keys, `null` when none: most turns approve nothing, and no key is looked up in an empty book. */
  const exemptions = (agent: Agent): ReadonlySet<string> | null => {
    const exempt = turns.get(agent)?.exempt;
    return exempt !== undefined && exempt.size > 0 ? exempt : null;
  };
  return {
    tally: (agent) => turns.get(agent)?.tally ?? NO_TALLY,
    commit: (agent, keys, window = fixedWindow) => commitKeys(turnOf(agent), keys, window),
    isExempt: (agent, key) => exemptions(agent)?.has(key) === true,
    exemptions,
    exempt: (agent, keys) => addAll(turnOf(agent).exempt, keys),
    exempted: (agent) => [...(turns.get(agent)?.exempt ?? [])],
    isRefused: (agent, key) => turns.get(agent)?.refused.has(key) ?? false,
    refuse: (agent, keys) => addAll(turnOf(agent).refused, keys),
    lastResult: (agent) => turns.get(agent)?.lastResult ?? '',
    setLastResult(agent, text) {
      const turn = turnOf(agent);
      // A loop returns the same result again: the copy held already is the same text.
      // Stryker disable next-line ConditionalExpression: a shortcut: a fresh copy of the same text reads the same
      if (turn.lastResult !== text) turn.lastResult = own(text);
    },
    changes: () => changes,
    noteChange(exact) {
      if (exact === lastChange) return;
      lastChange = own(exact);
      // Stryker disable next-line AssignmentOperator: the count is only compared with an earlier reading; counting down differs too
      changes += 1;
    },
    outcomes,
    reset(agent) {
      turns.delete(agent);
      outcomes.clear(agent);
    },
  };
}
