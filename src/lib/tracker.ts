/**
 * Per-agent state, in a WeakMap keyed by the agent object: one agent's loop
 * never trips another's, and the state goes when the agent does. Everything
 * held is bounded: the window by `window` calls of identity keys (P6), the
 * streak, exemption and refusal books by `BOOK_LIMIT` entries each.
 */
import type { Agent } from './host.js';
import type { Failure } from './failure.js';
import { add, keep } from './book.js';
import { own } from './own.js';

export interface Streak {
  readonly count: number;
  /** The last failure recorded for the measure; the denial describes it. */
  readonly failure: Failure;
}

/** One key's occurrences in the window; `key` is the stored copy, shared by every call that spent it. */
interface Entry {
  readonly key: string;
  count: number;
}

interface Slot {
  /** Committed calls, oldest first: each the entries of the keys it spent. */
  readonly calls: Entry[][];
  /** Occurrences per key across `calls`, kept in step with it. */
  readonly tally: Map<string, Entry>;
  readonly exempt: Set<string>;
  readonly refused: Set<string>;
  readonly streaks: Map<string, Streak>;
  /** Head of the last settled result of a call that ran. */
  lastResult: string;
}

export interface Tracker {
  /** Occurrences of a key in the agent's window, before the current call. */
  count(agent: Agent, key: string): number;
  /**
   * Records one call's keys (exempt ones are dropped; nothing left, no slot taken).
   * `window` is the agent's own when settings changed mid-turn; the oldest calls beyond it go.
   */
  commit(agent: Agent, keys: readonly string[], window?: number): void;
  streak(agent: Agent, key: string): Streak | undefined;
  /** A settled outcome: a failure extends each key's streak, a success clears it. Returns the new streaks. */
  settle(agent: Agent, keys: readonly string[], failure: Failure | null): number[];
  isExempt(agent: Agent, key: string): boolean;
  exempt(agent: Agent, keys: readonly string[]): void;
  /** The keys the agent holds an exemption for, oldest approval first. */
  exempted(agent: Agent): readonly string[];
  isRefused(agent: Agent, key: string): boolean;
  refuse(agent: Agent, keys: readonly string[]): void;
  lastResult(agent: Agent): string;
  setLastResult(agent: Agent, text: string): void;
  /** A human message: the window, streaks, exemptions and refusals all go. */
  reset(agent: Agent): void;
}

export function createTracker(fixedWindow: number): Tracker {
  const slots = new WeakMap<Agent, Slot>();
  const slot = (agent: Agent): Slot => {
    let found = slots.get(agent);
    if (found === undefined) {
      found = { calls: [], tally: new Map(), exempt: new Set(), refused: new Set(), streaks: new Map(), lastResult: '' };
      slots.set(agent, found);
    }
    return found;
  };

  return {
    count: (agent, key) => slots.get(agent)?.tally.get(key)?.count ?? 0,
    commit(agent, keys, window = fixedWindow) {
      const state = slot(agent);
      // One call is one occurrence, even when a key hit both tracks (P4).
      const spent = [...new Set(keys)].filter((key) => !state.exempt.has(key));
      if (spent.length === 0) return;
      const record: Entry[] = [];
      for (const key of spent) {
        let entry = state.tally.get(key);
        if (entry === undefined) {
          // A new key is copied once: cut from a huge fingerprint, it would keep it alive (P6).
          entry = { key: own(key), count: 0 };
          state.tally.set(entry.key, entry);
        }
        entry.count += 1;
        record.push(entry);
      }
      state.calls.push(record);
      while (state.calls.length > window) {
        for (const entry of state.calls.shift() ?? []) {
          entry.count -= 1;
          if (entry.count === 0) state.tally.delete(entry.key);
        }
      }
    },
    streak: (agent, key) => slots.get(agent)?.streaks.get(key),
    settle(agent, keys, failure) {
      const state = slot(agent);
      return keys.map((key) => {
        if (failure === null) {
          state.streaks.delete(key);
          return 0;
        }
        const count = (state.streaks.get(key)?.count ?? 0) + 1;
        keep(state.streaks, own(key), { count, failure: { reason: failure.reason, detail: own(failure.detail) } });
        return count;
      });
    },
    isExempt: (agent, key) => slots.get(agent)?.exempt.has(key) ?? false,
    exempt(agent, keys) {
      const state = slot(agent);
      for (const key of keys) add(state.exempt, own(key));
    },
    exempted: (agent) => [...(slots.get(agent)?.exempt ?? [])],
    isRefused: (agent, key) => slots.get(agent)?.refused.has(key) ?? false,
    refuse(agent, keys) {
      const state = slot(agent);
      for (const key of keys) add(state.refused, own(key));
    },
    lastResult: (agent) => slots.get(agent)?.lastResult ?? '',
    setLastResult(agent, text) {
      slot(agent).lastResult = own(text);
    },
    reset(agent) {
      slots.delete(agent);
    },
  };
}
