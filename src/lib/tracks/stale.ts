/**
 * The stale track (opt-in): a repeat that learned nothing. A call
 * that comes back with a result it already returned this turn, while nothing
 * in the workspace changed in between, told the model nothing new; doing it
 * again will tell it nothing new either. Counting such results in a row per
 * action (the call's `exact:` identity, and its `cmd:`, `act:` and `net:`
 * when they are measured) catches what real models do most: `find_file
 * "JsonParser"` answered "No matches found" 47 times, a `cd` into a missing
 * directory 21 times, the shell no-op `: ls -la /app` twenty times.
 *
 * It gates far earlier than the repeat track (after the 4th same result, where
 * the cap is 12) because its evidence is stronger: not that a call recurs, but
 * that it recurs to no effect. A result that differs (a poll whose answer
 * moves), or a change to any file since the last one (edit → rerun), starts
 * the count again, and a poll (a job's output, a line that sleeps first) is
 * not counted at all: while it waits, the same answer is the expected one.
 * The memory is the turn, not the window: a check repeated between long runs
 * is still the same check.
 */
import type { Agent, Notice } from '../host/types.js';
import type { Mark } from '../call/mark.js';
import { defang, type HitWords } from '../text/message.js';
import { countedSummary, createNotice } from '../text/notice.js';
import { stagesSetting } from '../setting/stages.js';
import { actionsRead } from './actions.js';
import { keep, recalls, remember, type Recent } from '../memory/book.js';
import { NO_HITS, type CallTrackModule, type Hit, type Judgement, type Settled, type Shared, type TrackedCall } from './track.js';

/** The `stale` setting: off by default; `{}` turns the track on with its defaults. */
export const STALE = stagesSetting('stale', { order: 5, cardOrder: 1 }, { warnAt: 3, limit: 4 }, {
  meaning: {
    en: {
      warnAt: 'how many times in a row a call returns the same result before the advisory; {off} turns the advisory off',
      limit: 'how many times in a row a call may return the same result before the next one meets the gate; {off} advises only',
    },
    zh: {
      warnAt: '同一调用连续多少次返回相同结果才给出建议；填 {off} 表示关闭建议',
      limit: '同一调用连续多少次返回相同结果之后，下一次这样的调用遇到闸门；填 {off} 表示只给建议',
    },
  },
  schema: {
    track: 'The stale track (opt-in): the same call returning the same result',
    warnAt: 'Same results in a row that earn the advisory; null: none.',
    limit: 'Same results in a row after which the next such call meets the gate; null advises only.',
  },
  card: {
    en: {
      track: { label: 'Stale track', hint: 'The same call returning the same result with nothing changed in between.' },
      warnAt: { label: 'Advisory at', hint: 'Same results in a row that earn the advisory.' },
      limit: { label: 'Gate after', hint: 'Same results in a row after which the next such call meets the gate; off advises only.' },
    },
    zh: {
      track: { label: '停滞轨道', hint: '同一调用在中间什么都没改的情况下一再返回相同的结果。' },
      warnAt: { label: '建议阈值', hint: '连续多少次相同结果时给出建议。' },
      limit: { label: '闸门阈值', hint: '连续多少次相同结果之后，下一次这样的调用遇到闸门；off 表示只给建议。' },
    },
  },
});

/** Distinct results remembered per action: an A/B alternation is as stale as A A A. */
const RESULTS_KEPT = 4;

/**
 * Actions remembered per agent, the most recent first to stay: a repeat comes
 * back within tens of calls, and a book this size costs some 50 KB.
 */
export const STALE_BOOK_LIMIT = 256;

/** One action's record, under its lookup key (call/identity.ts): the book never quotes an action. */
interface Entry {
  /** The digests of the action's recent results, newest last (book.ts `Recent`). */
  readonly results: Recent | undefined;
  /** Results in a row that were already among `results`, plus one: how many times the same result has come back. */
  same: number;
  /** `Shared.changes` when the action last settled. */
  changes: number;
}

/** Stale stage 1: the call keeps returning what it returned before. */
export function staleMessage(quote: string, times: number): string {
  return (
    `CONVERGENCE_CHECK: ${defang(quote)} has returned the same result ${times} times in a row, with nothing changed in between. ` +
    'Running it again will return it again. Use what it returned, or change what you do: another command, another target, or a fix before the rerun.'
  );
}

/** The operator's ask (text/ask.ts): the call keeps returning what it returned, nothing changed in between. */
const ask: HitWords['ask'] = {
  what: (hit) => `${hit.subject.it} ${hit.subject.many ? 'have' : 'has'} returned the same result ${hit.count} times, with nothing changed in between.`,
  also: (hit) => `the same result ${hit.count} times`,
};

const zh: HitWords['zh'] = {
  what: (hit) => `${hit.subject.it}已 ${hit.count} 次返回相同的结果，期间没有任何改动。`,
  also: (hit) => `${hit.count} 次返回相同的结果`,
};

const words: HitWords = {
  track: 'stale',
  listed: 3,
  why: (hit) => `calls like it returned the same result ${hit.count} times in a row (limit ${hit.cap})`,
  line: (hit) => `${defang(hit.quote)} \u2014 the same result ${hit.count} times in a row, nothing changed in between (limit ${hit.cap})`,
  note: 'Only the call that keeps returning the same result is blocked: a different call, or this one after a change to the files it reads, will run.',
  ask,
  zh,
};

function judge(book: WeakMap<Agent, Map<string, Entry>>, shared: Shared, call: TrackedCall, actions: readonly Mark[]): Judgement {
  const limit = STALE.of(call.cfg)?.limit ?? null;
  if (limit === null) return NO_HITS;
  const entries = book.get(call.agent);
  if (entries === undefined) return NO_HITS;
  const changes = shared.changes(call.agent);
  let hits: Hit[] | null = null;
  for (const mark of actions) {
    const entry = entries.get(mark.lookup);
    // A change since the last result: this run may well return something new.
    if (entry === undefined || entry.same < limit || entry.changes !== changes) continue;
    (hits ??= []).push({ key: mark.key, words, quote: mark.quote, count: entry.same, cap: limit, detail: '' });
  }
  return hits === null ? NO_HITS : { hits };
}

function learn(book: WeakMap<Agent, Map<string, Entry>>, shared: Shared, call: TrackedCall, actions: readonly Mark[], settled: Settled): Notice | null {
  const { agent } = call;
  const warnAt = STALE.of(call.cfg)?.warnAt;
  const digest = settled.outcome();
  let entries = book.get(agent);
  if (entries === undefined) book.set(agent, (entries = new Map()));
  const changes = shared.changes(agent);
  let top: { mark: Mark; same: number } | null = null;
  for (const mark of actions) {
    if (shared.isExempt(agent, mark.key)) continue;
    const key = mark.lookup;
    const before = entries.get(key);
    const results = before !== undefined && before.changes === changes ? before.results : undefined;
    const same = digest !== null && recalls(results, digest) ? (before?.same ?? 1) + 1 : 1;
    const kept = digest === null ? results : remember(results, digest, RESULTS_KEPT);
    keep(entries, key, { results: kept, same, changes }, STALE_BOOK_LIMIT);
    if (same === warnAt && (top === null || mark.rank < top.mark.rank)) top = { mark, same };
  }
  if (top === null) return null;
  return createNotice(staleMessage(top.mark.quote, top.same), countedSummary(top.mark.label, SUMMARY, top.same));
}

/** What its notices' summaries say: `cmd “…” same result x3`. */
const SUMMARY = 'same result';

export const staleTrack = {
  meta: {
    name: 'stale',
    description: 'The same call returning the same result, with nothing changed in between.',
    reads: 'calls',
    setting: STALE,
    isOn: (cfg) => STALE.of(cfg) !== null,
    // The change count, and the line's poll reading (a poll is no action it counts).
    needs: () => ({ changes: true, line: true }),
    words,
    summary: SUMMARY,
  },
  create(shared) {
    const book = new WeakMap<Agent, Map<string, Entry>>();
    const actions = actionsRead();
    return {
      read: actions.read,
      judge: (call) => judge(book, shared, call, actions.of(call)),
      learn: (call, settled) => learn(book, shared, call, actions.of(call), settled),
      clear: (agent) => void book.delete(agent),
    };
  },
} satisfies CallTrackModule;
