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
 *
 * With `backToBack`, the plainest loop is gated sooner: the very same call
 * (`exact:`), answered the same way that many times with no other call
 * between and nothing changed, meets the gate at the next one, as the
 * field's detectors gate three or four identical calls in a row. It asks more
 * than they do: the same answer each time, so a poll whose answer moves, or a
 * resumable job whose output moves, runs on.
 */
import type { Agent, Notice } from '../host/types.js';
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
}, {
  key: 'backToBack',
  meaning: {
    en: 'how many times the very same call may return the same result back to back, no other call between, before the next one meets the gate; {off} leaves it to the limit',
    zh: '完全相同的调用在中间没有别的调用的情况下接连返回相同结果多少次之后，下一次遇到闸门；填 {off} 表示交给闸门阈值',
  },
  schema: 'Times the very same call returns the same result back to back, no other call between, after which the next one meets the gate; null leaves it to limit.',
  card: {
    en: { label: 'Back to back', hint: 'The very same call answered the same way this many times with no call between: the next one meets the gate; off leaves it to the gate above.' },
    zh: { label: '接连阈值', hint: '完全相同的调用中间不隔别的调用、接连这么多次得到相同的回答：下一次遇到闸门；off 表示交给上面的闸门阈值。' },
  },
});

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

/**
 * The agent's last call that ran, while it is the same call answered the same
 * way back to back (`backToBack`): the strongest evidence of all, as no other
 * call came between to make a difference.
 */
interface Run {
  /** The call's identity (`exact:`), by its lookup key. */
  readonly lookup: string;
  readonly outcome: string;
  /** `Shared.changes` when it last settled: another agent's change in between ends the run. */
  readonly changes: number;
  /** How many times in a row it returned `outcome`. */
  count: number;
}

/** The back-to-back gate: the very call that returned the same result `backToBack` times with no call between. */
function runHit(runs: WeakMap<Agent, Run>, shared: Shared, call: TrackedCall, actions: readonly Mark[], backToBack: number | null): Hit | null {
  const exact = actions[0];
  const run = runs.get(call.agent);
  if (backToBack === null || exact === undefined || run === undefined || run.lookup !== exact.lookup) return null;
  if (run.count < backToBack || run.changes !== shared.changes(call.agent)) return null;
  return { key: exact.key, words, quote: exact.quote, count: run.count, cap: backToBack, detail: '' };
}

function judge(runs: WeakMap<Agent, Run>, shared: Shared, call: TrackedCall, actions: readonly Mark[]): Judgement {
  const stale = STALE.of(call.cfg);
  const limit = stale?.limit ?? null;
  const back = runHit(runs, shared, call, actions, stale?.backToBack ?? null);
  if (limit === null || actions.length === 0) return back === null ? NO_HITS : { hits: [back] };
  const { agent } = call;
  const changes = shared.changes(agent);
  const book = shared.outcomes.of(agent);
  let hits: Hit[] | null = back === null ? null : [back];
  for (const mark of actions) {
    if (mark.key === back?.key) continue;
    // A change since the last result: this run may well return something new (no same results in a row).
    const same = book.sameInRow(mark.lookup, changes);
    if (same < limit) continue;
    (hits ??= []).push({ key: mark.key, words, quote: mark.quote, count: same, cap: limit, detail: '' });
  }
  return hits === null ? NO_HITS : { hits };
}

/**
 * How a call was answered, for the back-to-back run: a failure that says why
 * (an exit code, a tool's error) by how it failed, as its words may vary with
 * what it quotes; anything else, a time-out included (its output says how far
 * the job got), by its outcome.
 */
function answerOf(settled: Settled): string | null {
  const { failure } = settled;
  if (failure !== null && failure.reason !== 'timeout') return `\u0000${failure.reason}:${failure.detail}`;
  return settled.outcome();
}

/** The run goes on when the call is the last one again, answered the same, nothing changed; any other call that ran starts another. */
function learnRun(runs: WeakMap<Agent, Run>, shared: Shared, call: TrackedCall, actions: readonly Mark[], outcome: string | null): void {
  const { agent } = call;
  const exact = actions[0];
  if (exact === undefined || outcome === null || shared.isExempt(agent, exact.key)) {
    runs.delete(agent);
    return;
  }
  const before = runs.get(agent);
  const changes = shared.changes(agent);
  if (before !== undefined && before.lookup === exact.lookup && before.outcome === outcome && before.changes === changes) before.count += 1;
  else runs.set(agent, { lookup: exact.lookup, outcome, changes, count: 1 });
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
    const runs = new WeakMap<Agent, Run>();
    return {
      judge: (call) => judge(runs, shared, call, actionsOf(call)),
      learn: (call, settled) => {
        // Runs are followed only while a policy asks for them.
        if ((STALE.of(call.cfg)?.backToBack ?? null) !== null) learnRun(runs, shared, call, actionsOf(call), answerOf(settled));
        else runs.delete(call.agent);
        return learn(shared, call, actionsOf(call), settled);
      },
      // The outcome memory is cleared with the agent's turn; the back-to-back run here.
      clear: (agent) => void runs.delete(agent),
    };
  },
} satisfies CallTrackModule;
