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
import { defang, type HitWords } from '../text/message.js';
import { countedSummary, createNotice } from '../text/notice.js';
import { STALE, staleMeta } from './stale.meta.js';
import { actionsOf, lookMarks } from './actions.js';
import { waitAside } from '../call/waits.js';
import { lookupKey } from '../call/identity.js';
import { optionsAside } from '../call/respelled.js';
import { endingAside, joinsOutOfContext, suffixOf } from '../call/plumbing.js';
import { maySelectOneTest, pytestSelection } from '../call/pytest-select.js';
import { mayNameOneFiles, pathReading, shellPathReading, type PathReading } from '../call/path.js';
import { resultText } from '../host/result.js';
import { answerDigest, answerText, runnerBanner } from '../result/answer.js';
import { sameTextBesideGutters } from '../result/gutter.js';
import { selectionAsideDigest } from '../result/pytest-report.js';
import { alternationWords, createAlternation, type Alternation } from './alternation.js';
import { NO_HITS, readOf, slot, type CallTrackModule, type Hit, type Judgement, type Settled, type Shared, type TrackedCall } from './track.js';

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

/**
 * The agent's last call that ran, while it is the same call answered the same
 * way back to back (`backToBack`): the strongest evidence of all, as no other
 * call came between to make a difference.
 */
interface Run {
  /** The actions every call of the run shared (`exact:`, and `cmd:`/`act:`/`net:` when measured), by their lookup keys. */
  lookups: readonly string[];
  readonly outcome: string;
  /** The last call's identity (`exact:`) and its result's digest: a respelled call continues the run only with the very same result. */
  exact: string;
  digest: string | null;
  /** The last call's key (`exact:`): a file's refusals are counted under the key of its first call (`RunFile.key`). */
  key: string;
  /** The last call's tool and shell line (`undefined`: not a shell call), for its reading with the options aside (call/respelled.ts). */
  tool: string;
  command: string | undefined;
  /** Whether that reading starts from the line's action: the `act:` measure was on for it. */
  acted: boolean;
  /** That reading, once read (`null`: not read yet, or not modelled). */
  aside: string | null;
  /** The run's calls with their paths aside, and every spelling of the paths the run answered (call/path.ts); `null`: none; `undefined`: a shell line's, not read yet. */
  file: RunFile | null | undefined;
  /** Whether a call joined the run by that reading alone, or by its path respelled: then no action of it counts the run's results, and the run advises itself. */
  respelled: boolean;
  /** Whether a call joined the run by its path respelled: then every refusal of the file's is one loop. */
  byPath: boolean;
  /** The last call's answer, for comparing it with the runner's banner and the paths it asked for aside (result/answer.ts). */
  answer: RunAnswer;
  /** The readings of the run's earlier calls (their options aside, or what their banner says they ran): a call in one of them asks the run's question. */
  readonly readings: string[];
  /** `Shared.changes` when it last settled: another agent's change in between ends the run. */
  readonly changes: number;
  /** How many times in a row it returned `outcome`. */
  count: number;
}

/** The file a run of one file tool's calls asks about: the calls with their path aside, and the spellings of the path answered. */
interface RunFile {
  readonly rest: string;
  /** The key of the file's first call: every spelling refused is one loop (breaker/knocks.ts), released by one approval. */
  readonly key: string;
  /** The paths as written, and in their one spelling: at most `SPELLINGS` (a loop tries a few). */
  readonly paths: (readonly string[])[];
  readonly spellings: string[];
}

/** A call's answer as the run keeps it: its text (not the result: a run outlives it), and what is read of it on ask only. */
interface RunAnswer {
  /** The result's text, `null` past answer.ts's read limit or unreadable: it is no answer to compare. */
  readonly text: string | null;
  /** How it failed (`ok`: it did not): answers compared without their banner and paths must fail alike. */
  readonly status: string;
  /** The paths the call asked for, as written (`undefined`: a shell line's, not read yet). */
  asked: readonly string[] | undefined;
  /** What its runner's banner says it ran, read as the project's tool run by npx (`undefined`: not read yet; `null`: no banner). */
  ran: string | null | undefined;
  /** Its digest with the banner and the paths aside (`undefined`: not read yet). */
  bare: string | null | undefined;
}

/** How many spellings of one path a run keeps (and readings of one run). */
const SPELLINGS = 8;

/** Whitespace, and the JSON escapes that spell it, in an identity: what re-indenting an edit changes. */
const WHITESPACE = /(?:\s|\\[ntr])+/g;

/**
 * The back-to-back reading of a file write (not a shell line): its identity with
 * every run of whitespace taken out, so that the same edit re-indented or
 * re-wrapped is the same attempt. Only a write that changed nothing (a
 * rejected edit) can continue a run, as any change ends it.
 */
function foldedWrite(call: TrackedCall, exact: string | undefined): string | null {
  if (exact === undefined || call.command !== undefined || !call.writes) return null;
  return lookupKey(`fold:${exact.replace(WHITESPACE, '')}`);
}

/** Each call's back-to-back actions, by their lookup keys: its actions (actions.ts) and its folded write. */
function runLookups(actions: readonly Mark[], folded: string | null): readonly string[] {
  const lookups = actions.map((action) => action.lookup);
  return folded === null ? lookups : [...lookups, folded];
}

/** Each call's back-to-back actions (`runLookups`), made once: it is judged twice, then learned from. */
const LOOKUPS = slot<readonly string[]>();

/** Each call's path reading (call/path.ts), made when it is read: the reading needs its identity and arguments. */
const PATHS = slot<PathReading | null>();

/** The call's path reading: a file tool's, made when it was read; a shell line's, read on first ask. */
const pathOf = (call: TrackedCall, actions: readonly Mark[]): PathReading | null =>
  readOf(call, PATHS, (read) => (read.command === undefined ? null : shellPathReading(read.command, read.name === 'pwsh' ? 'pwsh' : 'posix', acts(actions))));

/** The run's file, its last shell line read for it on first ask (only at the run's gate or after the very same result). */
function fileOf(run: Run): RunFile | null {
  if (run.file === undefined) run.file = runFile(null, run.command === undefined ? null : shellPathReading(run.command, run.tool === 'pwsh' ? 'pwsh' : 'posix', run.acted), run.key);
  return run.file;
}

/** The run's file after a call of it: its spellings with the call's added. */
function runFile(before: RunFile | null, reading: PathReading | null, key: string): RunFile | null {
  if (reading === null) return null;
  if (before === null || before.rest !== reading.rest) return { rest: reading.rest, key, paths: [reading.paths], spellings: [reading.spelling] };
  if (!before.spellings.includes(reading.spelling) && before.spellings.length < SPELLINGS) {
    before.paths.push(reading.paths);
    before.spellings.push(reading.spelling);
  }
  return before;
}

/**
 * Whether a file tool's call asks the run's question of the run's file: the
 * same call with its path aside, the path in a spelling the run answered
 * (`./a` after `a`). `mayBe`: or a spelling that may name the same file
 * (`a/../b`, an absolute path ending with the relative one), which joins only
 * with the very same result, the answer showing it is the same file.
 */
function asksSameFile(run: Run, call: TrackedCall, actions: readonly Mark[], mayBe: boolean): boolean {
  // Both calls must name files the same way (tool or line): a file tool's reading with a shell line's never joins.
  if ((call.command === undefined) !== (run.command === undefined)) return false;
  const file = fileOf(run);
  const reading = file === null ? null : pathOf(call, actions);
  if (file === null || reading === null || file.rest !== reading.rest) return false;
  if (file.spellings.includes(reading.spelling)) return true;
  // A search's answer names the place it resolved (call/aci-search.ts): the very same answer shows one place.
  return mayBe && (reading.answerNames === true || file.paths.some((paths) => mayNameOneFiles(paths, reading.paths)));
}

/** A shell line's reading with its options aside (call/respelled.ts), from its action when `act:` is measured. */
const asideOf = (tool: string, command: string, acted: boolean): string | null =>
  optionsAside(waitAside(command, tool === 'pwsh') ?? command, tool === 'pwsh' ? 'pwsh' : 'posix', acted);

/** With `backToBack`, a poll that only waits in front of its look has the look's actions (call/waits.ts); else the call's own. */
const WAITED = slot<readonly Mark[]>();
function staleActionsOf(call: TrackedCall): readonly Mark[] {
  const actions = actionsOf(call);
  if (actions.length > 0 || call.command === undefined || (STALE.of(call.cfg)?.backToBack ?? null) === null) return actions;
  return readOf(call, WAITED, (read) => (waitAside(read.command ?? '', read.name === 'pwsh') === null ? actions : lookMarks(read)));
}

/** Whether the call's actions include its `act:` reading (the measure is on). */
const acts = (actions: readonly Mark[]): boolean => actions.some((action) => action.measure === 'act');

/** Each shell call's reading with its options aside, read on first ask (judged twice, then learned from). */
const READING = slot<string | null>();
const readingOf = (call: TrackedCall, actions: readonly Mark[]): string | null =>
  readOf(call, READING, (read) => (read.command === undefined ? null : asideOf(read.name, read.command, acts(actions))));

/** Adds a reading the run answered to its readings (at most `SPELLINGS`). */
function remember(run: Run, reading: string | null | undefined): void {
  if (reading !== null && reading !== undefined && !run.readings.includes(reading) && run.readings.length < SPELLINGS) run.readings.push(reading);
}

/**
 * Whether a shell call joins the run by its options-aside reading alone: it
 * shares none of the run's actions, but runs the same programs on the same
 * operands. Asked only at the run's gate or after the very same result, so
 * lines are read again only there. `answered`: the call gave the run's answer,
 * and may join the run in no context from one, or back (call/plumbing.ts); at
 * the gate, with no answer yet, only in a context the run answered in.
 */
function joinsAside(run: Run, call: TrackedCall, actions: readonly Mark[], answered: boolean): boolean {
  if (call.command === undefined || run.command === undefined) return false;
  run.aside ??= asideOf(run.tool, run.command, run.acted);
  const reading = readingOf(call, actions);
  if (reading === null) return false;
  return run.aside === reading || run.readings.includes(reading) || ranOf(run.answer) === reading || (answered && joinsOutOfContext(reading, [run.aside, ...run.readings]));
}

/**
 * Whether a shell call joins the run through a suffix that says how the run
 * ended (`|| true`, `; echo $?`: call/plumbing.ts): the same reading, and the
 * same answer with the echo's own last line aside, its status unread when a
 * suffix set it.
 */
function joinsBySuffix(run: Run, call: TrackedCall, actions: readonly Mark[], answer: RunAnswer): boolean {
  if (call.command === undefined || run.command === undefined) return false;
  const mine = suffixOf(call.command, call.name === 'pwsh' ? 'pwsh' : 'posix');
  const theirs = suffixOf(run.command, run.tool === 'pwsh' ? 'pwsh' : 'posix');
  if (mine === null && theirs === null) return false;
  if (mine?.setsStatus !== true && theirs?.setsStatus !== true && answer.status !== run.answer.status) return false;
  if (answer.text === null || run.answer.text === null || !joinsAside(run, call, actions, true)) return false;
  const bare = answerDigest(endingAside(answer.text, mine?.echo ?? null), []);
  return bare !== null && bare === answerDigest(endingAside(run.answer.text, theirs?.echo ?? null), []);
}

/** How a call failed, for comparing answers without their banner and paths (`ok`: it did not). */
const statusOf = (settled: Settled): string => (settled.failure === null ? 'ok' : `${settled.failure.reason}:${settled.failure.detail}`);

/** A call's answer as the run keeps it: a file tool's paths are at hand, a shell line's are read on ask. */
const keptAnswer = (call: TrackedCall, actions: readonly Mark[], settled: Settled): RunAnswer => ({
  text: answerText(settled.result),
  status: statusOf(settled),
  asked: call.command === undefined ? (pathOf(call, actions)?.paths ?? []) : undefined,
  ran: undefined,
  bare: undefined,
});

/** What an answer's runner banner says it ran (`> jest t.js`: the project's jest, as `npx jest t.js` runs it), with its options aside. */
function ranOf(answer: RunAnswer): string | null {
  if (answer.ran === undefined) {
    const { text } = answer;
    const command = text === null ? null : (runnerBanner(text)?.command ?? null);
    answer.ran = command === null ? null : optionsAside(`npx ${command}`, 'posix');
  }
  return answer.ran;
}

/** The digest of an answer with its runner's banner and the paths it asked for aside (result/answer.ts). */
function bareOf(answer: RunAnswer, tool: string, command: string | undefined): string | null {
  if (answer.bare !== undefined) return answer.bare;
  answer.asked ??= command === undefined ? [] : (shellPathReading(command, tool === 'pwsh' ? 'pwsh' : 'posix', false)?.paths ?? []);
  const { text } = answer;
  answer.bare = text === null ? null : answerDigest(text, answer.asked);
  return answer.bare;
}

/** How many lines a digest (result/digest.ts's outcome: `flag|status|lines.sum`) counted: a quoted path changes none. */
const linesIn = (digest: string | null): string | undefined => digest?.split('|')[2]?.split('.')[0];

/**
 * Whether a call that asks the run's question (an action in common, its path
 * in a spelling the run answered, the same reading with its options aside or
 * by what its banner says it ran) gave the run's answer once the asking is set
 * aside: failing alike, the same text with the runner's banner and each
 * call's own path spellings aside. Read only for a failure or a bannered
 * answer, where the asking shows in the text. `path`/`aside`: how it asks.
 */
function joinsBare(run: Run, call: TrackedCall, actions: readonly Mark[], answer: RunAnswer, digest: string | null, common: boolean): 'common' | 'path' | 'aside' | null {
  if (run.answer.status !== answer.status) return null;
  // Without a banner, only a path's spelling may differ: as many lines (a failure only: a success quotes no path it could not find).
  const bannered = ranOf(answer) !== null || ranOf(run.answer) !== null;
  if (!bannered && (answer.status === 'ok' || linesIn(digest) !== linesIn(run.digest))) return null;
  let how: 'common' | 'path' | 'aside' | null = common ? 'common' : asksSameFile(run, call, actions, false) ? 'path' : null;
  if (how === null && call.command !== undefined && run.command !== undefined) {
    const ran = ranOf(answer);
    if (joinsAside(run, call, actions, true) || (ran !== null && (ran === run.aside || ran === ranOf(run.answer) || run.readings.includes(ran)))) how = 'aside';
  }
  if (how === null) return null;
  const bare = bareOf(answer, call.name, call.command);
  return bare !== null && bare === bareOf(run.answer, run.tool, run.command) ? how : null;
}

/** How many actions a run joined by its gutter keeps: two ways of reading one file, a few actions each. */
const LOOKUPS_KEPT = 16;

/**
 * Whether a call reads the run's file the other way, a file tool's read after
 * a shell read of its path or the reverse (`read app/config.py`, `cat -n
 * app/config.py`): paths that may name one file (call/path.ts), each
 * succeeding, the very same text with each answer's line-number gutter aside
 * (result/gutter.ts). Likely, not certain: the answer shows it.
 */
function joinsGutter(run: Run, call: TrackedCall, actions: readonly Mark[], answer: RunAnswer): boolean {
  if ((call.command === undefined) === (run.command === undefined) || answer.status !== 'ok' || run.answer.status !== 'ok') return false;
  const { text } = answer;
  const ran = run.answer.text;
  if (text === null || ran === null || !sameTextBesideGutters(text, ran)) return false;
  const file = fileOf(run);
  const reading = pathOf(call, actions);
  return file !== null && reading !== null && reading.paths.length === 1 && file.paths.some((paths) => mayNameOneFiles(paths, reading.paths));
}

/**
 * Whether a pytest run asks the run's question by another selection, a node
 * id for `-k` or the reverse (call/pytest-select.ts): selections that may
 * select one test, both failing alike, the very same answer with pytest's
 * report of the selection aside (result/pytest-report.ts). Likely, not certain.
 */
function joinsSelection(run: Run, call: TrackedCall, actions: readonly Mark[], answer: RunAnswer): boolean {
  const { command } = call;
  if (command === undefined || run.command === undefined || answer.status === 'ok' || answer.status !== run.answer.status) return false;
  const { text } = answer;
  const ran = run.answer.text;
  const mine = text === null ? null : pytestSelection(command, call.name === 'pwsh' ? 'pwsh' : 'posix', acts(actions));
  const theirs = mine === null ? null : pytestSelection(run.command, run.tool === 'pwsh' ? 'pwsh' : 'posix', run.acted);
  if (text === null || ran === null || mine === null || theirs === null || !maySelectOneTest(mine, theirs)) return false;
  const report = selectionAsideDigest(text);
  return report !== null && report === selectionAsideDigest(ran);
}

/** The run goes on with a call: the readings of its last call kept, the call's own (`reading`: its options-aside reading, when it joined by one) and its answer taken. */
function continueRun(run: Run, call: TrackedCall, actions: readonly Mark[], reading: string | null, answer: RunAnswer): void {
  if (run.aside !== reading) remember(run, run.aside);
  if (run.answer.ran !== undefined) remember(run, run.answer.ran);
  run.aside = reading;
  run.answer = answer;
  run.tool = call.name;
  run.command = call.command;
  run.acted = acts(actions);
}

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
  const limit = stale?.limit ?? null;
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
      (hits ??= []).push({ key: mark.key, words, quote: mark.quote, count: same, cap: limit, detail: '' });
    }
  }
  // The round's gate, unless the call is already gated under the round's key (the very call that went stale).
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
  if (failure !== null && failure.reason !== 'timeout' && !(failure.reason === 'exit' && failure.detail === TIMED_OUT_EXIT)) return `\u0000${failure.reason}:${failure.detail}`;
  return settled.outcome();
}

/**
 * The run goes on when the call is the last one again, answered the same, nothing changed; any other call that ran starts another.
 * Returns the run's count when a call joined it by its options-aside reading (the run advises at `warnAt`), else 0.
 */
function learnRun(runs: WeakMap<Agent, Run>, shared: Shared, call: TrackedCall, actions: readonly Mark[], lookups: readonly string[], settled: Settled): number {
  const { agent } = call;
  const exact = actions[0];
  const outcome = answerOf(settled);
  if (exact === undefined || outcome === null || shared.isExempt(agent, exact.key)) {
    runs.delete(agent);
    return 0;
  }
  const before = runs.get(agent);
  const changes = shared.changes(agent);
  const digest = settled.outcome();
  const common = before === undefined ? [] : before.lookups.filter((lookup) => lookups.includes(lookup));
  // The same failure is the same answer for the very same call; a respelled one (another value, a new
  // option) must return the very same result: a run that tries values and fails differently is exploring.
  const answered = before !== undefined && before.outcome === outcome && (before.exact === exact.lookup || before.digest === digest);
  // A call that shares no action joins only with the very same result, one that says something (an empty
  // answer says nothing of what an option changed: `git diff --cached`), its options aside the same line.
  const said = common.length === 0 && before !== undefined && before.digest === digest && digest !== null && resultText(settled.result, 'all').trim() !== '';
  // A file's path respelled: the same file's answer again (call/path.ts).
  let byPath = said && asksSameFile(before, call, actions, true);
  let aside = byPath || (said && joinsAside(before, call, actions, true));
  const answer = keptAnswer(call, actions, settled);
  // Else the same question answered alike once the asking is aside: the runner's banner, the path's spelling quoted.
  const bare = before === undefined || aside || (common.length > 0 && answered) || before.changes !== changes ? null : joinsBare(before, call, actions, answer, digest, common.length > 0);
  byPath ||= bare === 'path';
  aside ||= bare === 'path' || bare === 'aside';
  let joined = before !== undefined && (((common.length > 0 || aside) && answered) || bare !== null);
  // Else the run with a suffix that says how it ended, answered alike once the suffix's own line is aside.
  if (before !== undefined && !joined && before.changes === changes && joinsBySuffix(before, call, actions, answer)) joined = aside = true;
  // Else the run's file read the other way (a file tool, a shell read), the very same text with each gutter aside.
  const gutter = before !== undefined && !aside && bare === null && !(common.length > 0 && answered) && before.changes === changes && (joinsGutter(before, call, actions, answer) || joinsSelection(before, call, actions, answer));
  if (before !== undefined && (joined || gutter) && before.changes === changes) {
    continueRun(before, call, actions, aside && !byPath ? readingOf(call, actions) : null, answer);
    // Joined by its options-aside reading, the run goes on with this call's actions (its exact repeat shares them);
    // by its gutter or its tests' selection, with both ways of asking, the next call in either way being the run's.
    before.lookups = gutter ? [...before.lookups, ...lookups].slice(-LOOKUPS_KEPT) : aside ? lookups : common;
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
  runs.set(agent, { lookups, outcome, changes, count: 1, exact: exact.lookup, digest, tool: call.name, command: call.command, acted: acts(actions), aside: null, key: exact.key, file: call.command === undefined ? runFile(null, pathOf(call, actions), exact.key) : undefined, respelled: false, byPath: false, answer, readings: [] });
  return 0;
}

/** The call joins the history of calls in turn (alternation.ts) by its identity and answer; an exempt one starts it again. */
function learnTurn(pairs: Alternation, shared: Shared, call: TrackedCall, exact: Mark | undefined, settled: Settled, backToBack: number): void {
  const known = exact === undefined || shared.isExempt(call.agent, exact.key) ? null : exact;
  pairs.learn(call.agent, known === null ? null : { lookup: known.lookup, quote: known.quote }, answerOf(settled), shared.changes(call.agent), backToBack);
}

/** `respelled`: the back-to-back run's count when a call joined it by its options-aside reading (learnRun), else 0. */
function learn(rounds: WeakMap<Agent, Round>, shared: Shared, call: TrackedCall, actions: readonly Mark[], settled: Settled, respelled: number): Notice | null {
  const { agent } = call;
  const stale = STALE.of(call.cfg);
  const warnAt = stale?.warnAt;
  const cycle = stale?.cycle ?? null;
  const digest = settled.outcome();
  const changes = shared.changes(agent);
  const book = shared.outcomes.of(agent);
  let top: Mark | null = null;
  let topSame = 0;
  let exactSame = 0;
  for (const mark of actions) {
    if (shared.isExempt(agent, mark.key)) continue;
    const same = book.settleSame(mark.lookup, digest, changes);
    if (mark === actions[0]) exactSame = same;
    if (same === warnAt && (top === null || mark.rank < top.rank)) {
      top = mark;
      topSame = same;
    }
  }
  // Rounds are followed only while a policy asks for them.
  if (cycle === null) rounds.delete(agent);
  else learnRound(rounds, shared, call, actions[0], exactSame, cycle);
  // A run respelled in its options only is counted by no action: it advises as its own count reaches the advisory.
  if (top === null && respelled === warnAt && actions[0] !== undefined) [top, topSame] = [actions[0], respelled];
  if (top === null) return null;
  return createNotice(staleMessage(top.quote, topSame), countedSummary(top.label, SUMMARY, topSame));
}

/** What its notices' summaries say: `cmd “…” same result x3`. */
const SUMMARY = staleMeta.summary;

export const staleTrack = {
  meta: staleMeta,
  words,
  create(shared) {
    const runs = new WeakMap<Agent, Run>();
    const rounds = new WeakMap<Agent, Round>();
    const pairs = createAlternation();
    const lookupsOf = (call: TrackedCall): readonly string[] => readOf(call, LOOKUPS, (read) => runLookups(staleActionsOf(read), null));
    return {
      read: (call, fps, args) => {
        const backToBack = STALE.of(call.cfg)?.backToBack ?? null;
        const folded = backToBack === null ? null : foldedWrite(call, fps[0]);
        // The full fingerprint goes after this: a folded write's lookups are made now.
        if (folded !== null) readOf(call, LOOKUPS, (read) => runLookups(staleActionsOf(read), folded));
        const exact = fps[0];
        // A file tool that reads (a write's text may be a megabyte, and a rejected edit has its own gates: tracks/edit-retry.ts).
        if (backToBack !== null && exact !== undefined && call.command === undefined && !call.writes) readOf(call, PATHS, () => pathReading(call.name, args, exact));
      },
      judge: (call) => judge(runs, rounds, pairs, shared, call, staleActionsOf(call), lookupsOf(call)),
      learn: (call, settled) => {
        // Runs are followed only while a policy asks for them.
        let respelled = 0;
        const backToBack = STALE.of(call.cfg)?.backToBack ?? null;
        if (backToBack !== null) {
          respelled = learnRun(runs, shared, call, staleActionsOf(call), lookupsOf(call), settled);
          learnTurn(pairs, shared, call, staleActionsOf(call)[0], settled, backToBack);
        } else {
          runs.delete(call.agent);
          pairs.clear(call.agent);
        }
        return learn(rounds, shared, call, staleActionsOf(call), settled, respelled);
      },
      // The outcome memory is cleared with the agent's turn; the back-to-back run and the round here.
      clear: (agent) => {
        runs.delete(agent);
        rounds.delete(agent);
        pairs.clear(agent);
      },
    };
  },
} satisfies CallTrackModule;
