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
import type { Notice } from '../host/types.js';
import type { Mark } from '../call/mark.js';
import { defang, type HitWords } from '../text/message.js';
import { countedSummary, createNotice } from '../text/notice.js';
import { stagesSetting } from '../setting/stages.js';
import { actionsOf } from './actions.js';
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

/** Stale stage 1: the call keeps returning what it returned before. */
export function staleMessage(quote: string, times: number): string {
  return (
    `CONVERGENCE_CHECK: ${defang(quote)} has returned the same result ${times} times in a row, with nothing changed in between. ` +
    'Running it again will return it again. Use what it returned, or change what you do: another command, another target, or a fix before the rerun.'
  );
}

const words: HitWords = {
  track: 'stale',
  listed: 3,
  heading: 'Stale track:',
  why: (hit) => `it returned the same result ${hit.count} times in a row (limit ${hit.cap})`,
  line: (hit) => `${defang(hit.quote)} \u2014 the same result ${hit.count} times in a row, nothing changed in between (limit ${hit.cap})`,
  asking: (hit) => `repeats a call that has returned the same result ${hit.count} times in a row (the limit is ${hit.cap})`,
  detail: (hit) => `${defang(hit.quote)}, the same result ${hit.count} times in a row`,
  note: 'Only the call that keeps returning the same result is blocked: a different call, or this one after a change to the files it reads, will run.',
  zh: {
    heading: '停滞轨道：',
    asking: (hit) => `会重复一个已连续 ${hit.count} 次返回相同结果的调用（上限为 ${hit.cap}）`,
    detail: (hit) => `${defang(hit.quote)}，连续 ${hit.count} 次结果相同`,
  },
};

function judge(shared: Shared, call: TrackedCall, actions: readonly Mark[]): Judgement {
  const limit = STALE.of(call.cfg)?.limit ?? null;
  if (limit === null || actions.length === 0) return NO_HITS;
  const { agent } = call;
  const changes = shared.changes(agent);
  const book = shared.outcomes.of(agent);
  let hits: Hit[] | null = null;
  for (const mark of actions) {
    // A change since the last result: this run may well return something new (no same results in a row).
    const same = book.sameInRow(mark.lookup, changes);
    if (same < limit) continue;
    (hits ??= []).push({ key: mark.key, words, quote: mark.quote, count: same, cap: limit, detail: '' });
  }
  return hits === null ? NO_HITS : { hits };
}

function learn(shared: Shared, call: TrackedCall, actions: readonly Mark[], settled: Settled): Notice | null {
  const { agent } = call;
  const warnAt = STALE.of(call.cfg)?.warnAt;
  const digest = settled.outcome();
  const changes = shared.changes(agent);
  const book = shared.outcomes.of(agent);
  let top: Mark | null = null;
  let topSame = 0;
  for (const mark of actions) {
    if (shared.isExempt(agent, mark.key)) continue;
    const same = book.settleSame(mark.lookup, digest, changes);
    if (same === warnAt && (top === null || mark.rank < top.rank)) {
      top = mark;
      topSame = same;
    }
  }
  if (top === null) return null;
  return createNotice(staleMessage(top.quote, topSame), countedSummary(top.label, SUMMARY, topSame));
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
    return {
      judge: (call) => judge(shared, call, actionsOf(call)),
      learn: (call, settled) => learn(shared, call, actionsOf(call), settled),
      // The outcome memory is cleared with the agent's turn.
      clear: () => undefined,
    };
  },
} satisfies CallTrackModule;
