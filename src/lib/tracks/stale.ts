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
 * With `backToBack`, the plainest loop is gated sooner: the same action,
 * answered the same way that many times with no other call between and
 * nothing changed, meets the gate at the next one, as the field's detectors
 * gate three or four identical calls in a row. The same action is the call
 * itself or any reading of it that names it however spelled (`cmd:`, `act:`,
 * `net:` when measured: the no-op `:` with new words each time), and, for a
 * file write, its text with the whitespace taken out (the same rejected edit
 * re-indented). It asks more than the field does: the same answer each time,
 * so a poll whose answer moves, or a resumable job whose output moves, runs on.
 *
 * With `cycle`, the loop is the round, not the call: once one call has
 * returned the same result that many times in a row, nothing changed, every
 * call the turn makes after it that was answered before, nothing changed
 * since, is the same loop and meets the gate, until a call brings something
 * new or a file changes. A model cycling through a failing open, a failing
 * search and a search it already read spends each round on answers it has.
 */
import type { Agent, Notice } from '../host/types.js';
import type { Mark } from '../call/mark.js';
import { own } from '../host/own.js';
import { defang, type HitWords } from '../text/message.js';
import { countedSummary, createNotice } from '../text/notice.js';
import { STALE, staleMeta } from './stale.meta.js';
import { pathReading } from '../call/path.js';
import { resultText } from '../host/result.js';
import { LOOKUPS, LOOKUPS_KEPT, PATHS, acts, asksSameFile, continueRun, fileOf, foldedWrite, joinsAside, joinsBare, joinsBySuffix, joinsGutter, joinsSelection, keptAnswer, pathOf, readingOf, runFile, runLookups, staleActionsOf, suffixKept, type Run } from './stale-run.js';
import { alternationWords, createAlternation, type Alternation } from './alternation.js';
import { NO_HITS, readOf, type CallTrackModule, type Hit, type Judgement, type Settled, type Shared, type TrackedCall } from './track.js';

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

/** The round's words: the call denied is one the model already has the answer to, in a turn where another call went stale. */
const roundWords: HitWords = {
  track: 'stale',
  listed: 3,
  why: (hit) => `this call was answered before, nothing changed since, and the turn is going round: ${defang(hit.detail)} returned the same result ${hit.count} times in a row (limit ${hit.cap})`,
  line: (hit) => `${defang(hit.quote)} \u2014 answered before, nothing changed since, in a round where ${defang(hit.detail)} returned the same result ${hit.count} times (limit ${hit.cap})`,
  note: 'A call whose answer is not known yet will run, and so will any call after a change to the files or after a call that returns something new.',
  ask: {
    what: (hit) => `${hit.subject.it} ${hit.subject.many ? 'were' : 'was'} answered before, nothing changed since: the turn is going round.`,
    also: () => 'answered before, the turn going round',
  },
  zh: {
    what: (hit) => `${hit.subject.it}此前已得到过回答，其后没有任何改动：这一轮在原地打转。`,
    also: () => '此前已得到过回答，这一轮在原地打转',
  },
};

/** The back-to-back gate: the very call that returned the same result `backToBack` times with no call between. */
function runHit(runs: WeakMap<Agent, Run>, shared: Shared, call: TrackedCall, actions: readonly Mark[], lookups: readonly string[], backToBack: number | null): Hit | null {
  const run = runs.get(call.agent);
  const exact = actions[0];
  if (backToBack === null || run === undefined || exact === undefined) return null;
  if (run.count < backToBack || run.changes !== shared.changes(call.agent)) return null;
  const common = lookups.some((lookup) => run.lookups.includes(lookup));
  // A file asked again in a spelling the run answered: once a spelling joined the run, every call of the file's is one loop.
  const sameFile = (!common || run.byPath) && asksSameFile(run, call, actions, false);
  if (!common && !sameFile && !joinsAside(run, call, actions, false)) return null;
  // The hit names the first action the run shares, the call itself when only its folded write does.
  const mark = actions.find((action) => run.lookups.includes(action.lookup)) ?? exact;
  const key = sameFile ? (fileOf(run)?.key ?? mark.key) : mark.key;
  // Stryker disable next-line StringLiteral: only the round's words read a hit's detail
  return { key, words, quote: mark.quote, count: run.count, cap: backToBack, detail: '' };
}

/**
 * A round (`cycle`): the call that went stale, while every call since it was
 * one answered before, nothing changed.
 */
interface Round {
  /** The key of the call that went stale: every refusal of the round is one loop (breaker/knocks.ts), released by one approval. */
  readonly key: string;
  /** The call that returned the same result `count` times in a row, as quoted. */
  readonly quote: string;
  readonly count: number;
  /** `Shared.changes` when it settled: a change since ends the round. */
  readonly changes: number;
}

/** The round's gate: a call answered before, nothing changed since, while the round goes on. */
function roundHit(rounds: WeakMap<Agent, Round>, shared: Shared, call: TrackedCall, actions: readonly Mark[], cycle: number | null): Hit | null {
  const round = rounds.get(call.agent);
  const exact = actions[0];
  if (cycle === null || round === undefined || exact === undefined) return null;
  const changes = shared.changes(call.agent);
  if (round.changes !== changes || shared.outcomes.of(call.agent).sameInRow(exact.lookup, changes) === 0) return null;
  return { key: round.key, words: roundWords, quote: exact.quote, count: round.count, cap: cycle, detail: round.quote };
}

/**
 * The round after a call settled: it starts when the call's same results in a
 * row reach `cycle`, goes on while each call returns what it returned before,
 * and ends at a call that brought something new (its first result, or a new one).
 */
function learnRound(rounds: WeakMap<Agent, Round>, shared: Shared, call: TrackedCall, exact: Mark | undefined, same: number, cycle: number): void {
  const { agent } = call;
  if (exact === undefined || same < 2) rounds.delete(agent);
  else if (same >= cycle) rounds.set(agent, { key: exact.key, quote: exact.quote, count: same, changes: shared.changes(agent) });
}

/** The back-to-back gate over a round of two (alternation.ts): the very call that would start the next round of two calls gone in turn `backToBack` times. */
function turnHit(pairs: Alternation, shared: Shared, call: TrackedCall, exact: Mark | undefined, backToBack: number | null): Hit | null {
  if (backToBack === null || exact === undefined) return null;
  const partner = pairs.partner(call.agent, exact.lookup, shared.changes(call.agent), backToBack);
  return partner === null ? null : { key: exact.key, words: alternationWords, quote: exact.quote, count: backToBack, cap: backToBack, detail: partner };
}

function judge(runs: WeakMap<Agent, Run>, rounds: WeakMap<Agent, Round>, pairs: Alternation, shared: Shared, call: TrackedCall, actions: readonly Mark[], lookups: readonly string[]): Judgement {
  const stale = STALE.of(call.cfg);
  // Stryker disable next-line OptionalChaining: the track is called only for a policy that turns it on (breaker.ts)
  const limit = stale?.limit ?? null;
  // Stryker disable next-line OptionalChaining: as above
  const back = runHit(runs, shared, call, actions, lookups, stale?.backToBack ?? null) ?? turnHit(pairs, shared, call, actions[0], stale?.backToBack ?? null);
  let hits: Hit[] | null = back === null ? null : [back];
  if (limit !== null) {
    const changes = shared.changes(call.agent);
    const book = shared.outcomes.of(call.agent);
    for (const mark of actions) {
      if (mark.key === back?.key) continue;
      // A change since the last result: this run may well return something new (no same results in a row).
      const same = book.sameInRow(mark.lookup, changes);
      if (same < limit) continue;
      // Stryker disable next-line StringLiteral: only the round's words read a hit's detail
      (hits ??= []).push({ key: mark.key, words, quote: mark.quote, count: same, cap: limit, detail: '' });
    }
  }
  // The round's gate, unless the call is already gated under the round's key (the very call that went stale).
  // Stryker disable next-line OptionalChaining: as above
  const round = roundHit(rounds, shared, call, actions, stale?.cycle ?? null);
  if (round !== null && !(hits ?? []).some((hit) => hit.key === round.key)) (hits ??= []).push(round);
  return hits === null ? NO_HITS : { hits };
}

/** `timeout`'s own exit code when the command it runs runs out of time (GNU coreutils). */
const TIMED_OUT_EXIT = '124';

/**
 * How a call was answered, for the back-to-back run: a failure that says why
 * (an exit code, a tool's error) by how it failed, as its words may vary with
 * what it quotes; anything else, a time-out included (its output says how far
 * the job got), by its outcome. Exit 124 is a time-out too, as `timeout 600
 * make` reports one: a resumable job killed further on each time is no repeat.
 */
function answerOf(settled: Settled): string | null {
  const { failure } = settled;
  // Kept by the run and the round of two: a failure's words, cut from the result, are copied so as not to hold it (P6); a digest is a string of its own.
  if (failure !== null && failure.reason !== 'timeout' && !(failure.reason === 'exit' && failure.detail === TIMED_OUT_EXIT)) return own(`\u0000${failure.reason}:${failure.detail}`);
  return settled.outcome();
}

/** Whether two lists of lookup keys share one. */
function sharesLookup(run: readonly string[], call: readonly string[]): boolean {
  for (let at = 0; at < run.length; at += 1) if (call.includes(run[at] as string)) return true;
  return false;
}

/**
 * The run goes on when the call is the last one again, answered the same, nothing changed; any other call that ran starts another.
 * Returns the run's count when a call joined it by its options-aside reading (the run advises at `warnAt`), else 0.
 */
function learnRun(runs: WeakMap<Agent, Run>, shared: Shared, call: TrackedCall, actions: readonly Mark[], lookups: readonly string[], settled: Settled, outcome: string | null): number {
  const { agent } = call;
  const exact = actions[0];
  if (exact === undefined || outcome === null || shared.isExempt(agent, exact.key)) {
    runs.delete(agent);
    return 0;
  }
  const before = runs.get(agent);
  const changes = shared.changes(agent);
  const digest = settled.outcome();
  // Whether it shares an action with the run; the shared ones are listed only when the run goes on with them.
  const common = before !== undefined && sharesLookup(before.lookups, lookups);
  // The same failure is the same answer for the very same call; a respelled one (another value, a new
  // option) must return the very same result: a run that tries values and fails differently is exploring.
  const answered = before !== undefined && before.outcome === outcome && (before.exact === exact.lookup || before.digest === digest);
  // A call that shares no action joins only with the very same result, one that says something (an empty
  // answer says nothing of what an option changed: `git diff --cached`), its options aside the same line.
  const said = !common && before !== undefined && before.digest === digest && digest !== null && resultText(settled.result, 'all').trim() !== '';
  // A file's path respelled: the same file's answer again (call/path.ts).
  let byPath = said && asksSameFile(before, call, actions, true);
  let aside = byPath || (said && joinsAside(before, call, actions, true));
  const answer = keptAnswer(call, actions, settled);
  // Else the same question answered alike once the asking is aside: the runner's banner, the path's spelling quoted.
  const bare = before === undefined || aside || (common && answered) || before.changes !== changes ? null : joinsBare(before, call, actions, answer, digest, common);
  byPath ||= bare === 'path';
  aside ||= bare === 'path' || bare === 'aside';
  let joined = before !== undefined && (((common || aside) && answered) || bare !== null);
  // Else the run with a suffix that says how it ended, answered alike once the suffix's own line is aside.
  if (before !== undefined && !joined && before.changes === changes && joinsBySuffix(before, call, actions, answer)) joined = aside = true;
  // Else the run's file read the other way (a file tool, a shell read), the very same text with each gutter aside.
  const gutter = before !== undefined && !aside && bare === null && !(common && answered) && before.changes === changes && (joinsGutter(before, call, actions, answer) || joinsSelection(before, call, actions, answer));
  if (before !== undefined && (joined || gutter) && before.changes === changes) {
    continueRun(before, call, actions, aside && !byPath ? readingOf(call, actions) : null, answer);
    // Joined by its options-aside reading, the run goes on with this call's actions (its exact repeat shares them);
    // by its gutter or its tests' selection, with both ways of asking, the next call in either way being the run's.
    before.lookups = gutter ? [...before.lookups, ...lookups].slice(-LOOKUPS_KEPT) : aside ? lookups : before.lookups.filter((lookup) => lookups.includes(lookup));
    before.exact = exact.lookup;
    before.digest = digest;
    // A file tool's reading is at hand; a shell line's is kept while the line is the same action, else read again on ask.
    if (call.command === undefined || byPath) before.file = runFile(before.file ?? null, pathOf(call, actions), exact.key);
    else if (aside) before.file = undefined;
    before.key = exact.key;
    before.byPath ||= byPath;
    before.respelled ||= aside || bare !== null || gutter;
    before.count += 1;
    return before.respelled ? before.count : 0;
  }
  runs.set(agent, { lookups, outcome, changes, count: 1, exact: exact.lookup, digest, tool: call.name, command: call.command, acted: acts(actions), suffix: suffixKept(call), aside: null, key: exact.key, file: call.command === undefined ? runFile(null, pathOf(call, actions), exact.key) : undefined, respelled: false, byPath: false, answer, readings: [] });
  return 0;
}

/** The call joins the history of calls in turn (alternation.ts) by its identity and answer; an exempt one starts it again. */
function learnTurn(pairs: Alternation, shared: Shared, call: TrackedCall, exact: Mark | undefined, answer: string | null, backToBack: number): void {
  const known = exact === undefined || shared.isExempt(call.agent, exact.key) ? null : exact;
  pairs.learn(call.agent, known, answer, shared.changes(call.agent), backToBack);
}

/** `respelled`: the back-to-back run's count when a call joined it by its options-aside reading (learnRun), else 0. */
function learn(rounds: WeakMap<Agent, Round>, shared: Shared, call: TrackedCall, actions: readonly Mark[], settled: Settled, respelled: number): Notice | null {
  const { agent } = call;
  const stale = STALE.of(call.cfg);
  // Stryker disable next-line OptionalChaining: the track is called only for a policy that turns it on (breaker.ts)
  const warnAt = stale?.warnAt;
  // Stryker disable next-line OptionalChaining: as above
  const cycle = stale?.cycle ?? null;
  const digest = settled.outcome();
  const changes = shared.changes(agent);
  const book = shared.outcomes.of(agent);
  const exempt = shared.exemptions(agent);
  let top: Mark | null = null;
  let topSame = 0;
  let exactSame = 0;
  for (const mark of actions) {
    if (exempt?.has(mark.key) === true) continue;
    const same = book.settleSame(mark.lookup, digest, changes);
    if (mark === actions[0]) exactSame = same;
    if (same === warnAt && (top === null || mark.rank < top.rank)) {
      top = mark;
      topSame = same;
    }
  }
  // Rounds are followed only while a policy asks for them (a looser setting waits for the human message that clears them).
  // Stryker disable next-line ConditionalExpression: so there is no round to delete while cycle is off
  if (cycle === null) rounds.delete(agent);
  else learnRound(rounds, shared, call, actions[0], exactSame, cycle);
  // A run respelled in its options only is counted by no action: it advises as its own count reaches the advisory.
  if (top === null && respelled === warnAt && actions[0] !== undefined) [top, topSame] = [actions[0], respelled];
  if (top === null) return null;
  return createNotice(staleMessage(top.quote, topSame), countedSummary(top.label, SUMMARY, topSame));
}

/** What its notices' summaries say: `cmd “…” same result x3`. */
const SUMMARY = staleMeta.summary;

/** A call's lookups for its back-to-back run, read once a call, on first use. */
const lookupsOf = (call: TrackedCall): readonly string[] => readOf(call, LOOKUPS, (read) => runLookups(staleActionsOf(read), null));

/** The stale track's books: each agent's back-to-back run and round, the two calls in turn, and the shared memory. */
interface StaleBooks {
  readonly runs: WeakMap<Agent, Run>;
  readonly rounds: WeakMap<Agent, Round>;
  readonly pairs: Alternation;
  readonly shared: Shared;
}

export const staleTrack = {
  meta: staleMeta,
  words,
  create: (shared) => ({ runs: new WeakMap<Agent, Run>(), rounds: new WeakMap<Agent, Round>(), pairs: createAlternation(), shared }),
  hooks: {
    // Readings made ahead for the back-to-back run only, which reads them only while its setting is on: a mutant that
    // makes them always, or makes the folded write's lookups without a folded write (the same lookups), costs time only.
    read: (_books, call, fps, args) => {
      // Stryker disable next-line OptionalChaining: the track is called only for a policy that turns it on (breaker.ts)
      const backToBack = STALE.of(call.cfg)?.backToBack ?? null;
      // Stryker disable next-line ConditionalExpression: cost only (above)
      const folded = backToBack === null ? null : foldedWrite(call, fps[0]);
      // The full fingerprint goes after this: a folded write's lookups are made now.
      // Stryker disable next-line ConditionalExpression: cost only (above)
      if (folded !== null) readOf(call, LOOKUPS, (read) => runLookups(staleActionsOf(read), folded));
      const exact = fps[0];
      // A file tool that reads (a write's text may be a megabyte, and a rejected edit has its own gates: tracks/edit-retry.ts).
      // Stryker disable next-line ConditionalExpression,LogicalOperator: cost only (above); a call always has its exact reading
      if (backToBack !== null && exact !== undefined && call.command === undefined && !call.writes) readOf(call, PATHS, () => pathReading(call.name, args, exact));
    },
    judge: ({ runs, rounds, pairs, shared }, call) => judge(runs, rounds, pairs, shared, call, staleActionsOf(call), lookupsOf(call)),
    learn: ({ runs, rounds, pairs, shared }, call, settled) => {
      // Runs are followed only while a policy asks for them (a looser setting waits for the human message that clears them).
      let respelled = 0;
      // Stryker disable next-line OptionalChaining: the track is called only for a policy that turns it on (breaker.ts)
      const backToBack = STALE.of(call.cfg)?.backToBack ?? null;
      const actions = staleActionsOf(call);
      // Stryker disable next-line ConditionalExpression: a run or a pair followed while off is never read (runHit, turnHit)
      if (backToBack !== null) {
        // How the call was answered, read once for the run and the round of two.
        const answer = answerOf(settled);
        respelled = learnRun(runs, shared, call, actions, lookupsOf(call), settled, answer);
        learnTurn(pairs, shared, call, actions[0], answer, backToBack);
        // Stryker disable next-line BlockStatement: so there is none to delete while off
      } else {
        runs.delete(call.agent);
        pairs.clear(call.agent);
      }
      return learn(rounds, shared, call, actions, settled, respelled);
    },
    // The outcome memory is cleared with the agent's turn; the back-to-back run and the round here.
    clear: ({ runs, rounds, pairs }, agent) => {
      runs.delete(agent);
      rounds.delete(agent);
      pairs.clear(agent);
    },
  },
} satisfies CallTrackModule<StaleBooks>;
