/**
 * The stale track's back-to-back run: what it holds of the agent's last call
 * (its actions, its readings, its answer, its file) and how the next call
 * joins it. The call itself, or a reading that names it however spelled, is
 * the same action; a likely reading (options, front-ends, plumbing, a wait, a
 * path's spelling, a gutter, a test's selection) joins only with the very
 * same answer. tracks/stale.ts gates and learns by it.
 */
import type { Mark } from '../call/mark.js';
import { STALE } from './stale.meta.js';
import { actionsOf, lookMarks } from './actions.js';
import { waitAside } from '../call/waits.js';
import { lookupKey } from '../call/identity.js';
import { optionsAside } from '../call/respelled.js';
import { endingAside, joinsOutOfContext, suffixOf, type Suffix } from '../call/plumbing.js';
import { maySelectOneTest, pytestSelection } from '../call/pytest-select.js';
import { mayNameOneFiles, shellPathReading, type PathReading } from '../call/path.js';
import { answerDigest, answerText, runnerBanner } from '../result/answer.js';
import { sameTextBesideGutters } from '../result/gutter.js';
import { selectionAsideDigest } from '../result/pytest-report.js';
import { keptOf, readOf, slot, type Settled, type TrackedCall } from './track.js';
import { dialectOf } from '../call/read.js';

/**
 * The agent's last call that ran, while it is the same call answered the same
 * way back to back (`backToBack`): the strongest evidence of all, as no other
 * call came between to make a difference.
 */
export interface Run {
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
  /** The suffix that line ends with, saying how it ended (call/plumbing.ts; `undefined`: not read yet): read as the call asked to join the run before. */
  suffix: Suffix | null | undefined;
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
export function foldedWrite(call: TrackedCall, exact: string | undefined): string | null {
  if (exact === undefined || call.command !== undefined || !call.writes) return null;
  return lookupKey(`fold:${exact.replace(WHITESPACE, '')}`);
}

/** Each call's back-to-back actions, by their lookup keys: its actions (actions.ts) and its folded write. */
export function runLookups(actions: readonly Mark[], folded: string | null): readonly string[] {
  const lookups = actions.map((action) => action.lookup);
  return folded === null ? lookups : [...lookups, folded];
}

/** Each call's back-to-back actions (`runLookups`), made once: it is judged twice, then learned from. */
export const LOOKUPS = slot<readonly string[]>();

/** Each call's path reading (call/path.ts), made when it is read: the reading needs its identity and arguments. */
export const PATHS = slot<PathReading | null>();

/** The call's path reading: a file tool's, made when it was read; a shell line's, read on first ask. */
export const pathOf = (call: TrackedCall, actions: readonly Mark[]): PathReading | null =>
  readOf(call, PATHS, (read) => (read.command === undefined ? null : shellPathReading(read.command, dialectOf(read.name), acts(actions))));

/** The run's file, its last shell line read for it on first ask (only at the run's gate or after the very same result). */
export function fileOf(run: Run): RunFile | null {
  if (run.file === undefined) run.file = runFile(null, run.command === undefined ? null : shellPathReading(run.command, dialectOf(run.tool), run.acted), run.key);
  return run.file;
}

/** The run's file after a call of it: its spellings with the call's added. */
export function runFile(before: RunFile | null, reading: PathReading | null, key: string): RunFile | null {
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
export function asksSameFile(run: Run, call: TrackedCall, actions: readonly Mark[], mayBe: boolean): boolean {
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
  optionsAside(waitAside(command, tool === 'pwsh') ?? command, dialectOf(tool), acted);

/** With `backToBack`, a poll that only waits in front of its look has the look's actions (call/waits.ts); else the call's own. */
const WAITED = slot<readonly Mark[]>();
export function staleActionsOf(call: TrackedCall): readonly Mark[] {
  const actions = actionsOf(call);
  if (actions.length > 0 || call.command === undefined || (STALE.of(call.cfg)?.backToBack ?? null) === null) return actions;
  return readOf(call, WAITED, (read) => (waitAside(read.command ?? '', read.name === 'pwsh') === null ? actions : lookMarks(read)));
}

/** Whether the call's actions include its `act:` reading (the measure is on). */
export const acts = (actions: readonly Mark[]): boolean => actions.some((action) => action.measure === 'act');

/** Each shell call's reading with its options aside, read on first ask (judged twice, then learned from). */
const READING = slot<string | null>();
export const readingOf = (call: TrackedCall, actions: readonly Mark[]): string | null =>
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
export function joinsAside(run: Run, call: TrackedCall, actions: readonly Mark[], answered: boolean): boolean {
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
export function joinsBySuffix(run: Run, call: TrackedCall, actions: readonly Mark[], answer: RunAnswer): boolean {
  if (call.command === undefined || run.command === undefined) return false;
  const mine = readOf(call, SUFFIX, suffixRead);
  if (run.suffix === undefined) run.suffix = suffixOf(run.command, dialectOf(run.tool));
  const theirs = run.suffix;
  if (mine === null && theirs === null) return false;
  if (mine?.setsStatus !== true && theirs?.setsStatus !== true && answer.status !== run.answer.status) return false;
  if (answer.text === null || run.answer.text === null || !joinsAside(run, call, actions, true)) return false;
  const bare = answerDigest(endingAside(answer.text, mine?.echo ?? null), []);
  return bare !== null && bare === answerDigest(endingAside(run.answer.text, theirs?.echo ?? null), []);
}

/** Each shell call's suffix (`suffixOf`), read when it asks to join a run, and kept by the run it starts or goes on in: the next call finds it there. */
const SUFFIX = slot<Suffix | null>();
const suffixRead = (call: TrackedCall): Suffix | null => (call.command === undefined ? null : suffixOf(call.command, dialectOf(call.name)));

/** The call's suffix, when it was read (`undefined`: not read): what a run it starts or goes on in keeps. */
export const suffixKept = (call: TrackedCall): Suffix | null | undefined => keptOf(call, SUFFIX);

/** How a call failed, for comparing answers without their banner and paths (`ok`: it did not). */
const statusOf = (settled: Settled): string => (settled.failure === null ? 'ok' : `${settled.failure.reason}:${settled.failure.detail}`);

/** A call's answer as the run keeps it: a file tool's paths are at hand, a shell line's are read on ask. */
export const keptAnswer = (call: TrackedCall, actions: readonly Mark[], settled: Settled): RunAnswer => ({
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
  answer.asked ??= command === undefined ? [] : (shellPathReading(command, dialectOf(tool), false)?.paths ?? []);
  const { text } = answer;
  answer.bare = text === null ? null : answerDigest(text, answer.asked);
  return answer.bare;
}

/** How many lines a digest (result/digest.ts's outcome: `flag|status|lines.sum`) counted: a quoted path changes none. */
function linesIn(digest: string | null): string | undefined {
  // The third field as `split('|')[2]` reads it, up to its first `.`: found in place, one short slice.
  const first = digest === null ? -1 : digest.indexOf('|');
  const second = first === -1 ? -1 : (digest as string).indexOf('|', first + 1);
  if (second === -1) return undefined;
  const text = digest as string;
  const bar = text.indexOf('|', second + 1);
  const end = bar === -1 ? text.length : bar;
  const dot = text.indexOf('.', second + 1);
  return text.slice(second + 1, dot !== -1 && dot < end ? dot : end);
}

/**
 * Whether a call that asks the run's question (an action in common, its path
 * in a spelling the run answered, the same reading with its options aside or
 * by what its banner says it ran) gave the run's answer once the asking is set
 * aside: failing alike, the same text with the runner's banner and each
 * call's own path spellings aside. Read only for a failure or a bannered
 * answer, where the asking shows in the text. `path`/`aside`: how it asks.
 */
export function joinsBare(run: Run, call: TrackedCall, actions: readonly Mark[], answer: RunAnswer, digest: string | null, common: boolean): 'common' | 'path' | 'aside' | null {
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
export const LOOKUPS_KEPT = 16;

/**
 * Whether a call reads the run's file the other way, a file tool's read after
 * a shell read of its path or the reverse (`read app/config.py`, `cat -n
 * app/config.py`): paths that may name one file (call/path.ts), each
 * succeeding, the very same text with each answer's line-number gutter aside
 * (result/gutter.ts). Likely, not certain: the answer shows it.
 */
export function joinsGutter(run: Run, call: TrackedCall, actions: readonly Mark[], answer: RunAnswer): boolean {
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
export function joinsSelection(run: Run, call: TrackedCall, actions: readonly Mark[], answer: RunAnswer): boolean {
  const { command } = call;
  if (command === undefined || run.command === undefined || answer.status === 'ok' || answer.status !== run.answer.status) return false;
  const { text } = answer;
  const ran = run.answer.text;
  const mine = text === null ? null : pytestSelection(command, dialectOf(call.name), acts(actions));
  const theirs = mine === null ? null : pytestSelection(run.command, dialectOf(run.tool), run.acted);
  if (text === null || ran === null || mine === null || theirs === null || !maySelectOneTest(mine, theirs)) return false;
  const report = selectionAsideDigest(text);
  return report !== null && report === selectionAsideDigest(ran);
}

/** The run goes on with a call: the readings of its last call kept, the call's own (`reading`: its options-aside reading, when it joined by one) and its answer taken. */
export function continueRun(run: Run, call: TrackedCall, actions: readonly Mark[], reading: string | null, answer: RunAnswer): void {
  if (run.aside !== reading) remember(run, run.aside);
  if (run.answer.ran !== undefined) remember(run, run.answer.ran);
  run.aside = reading;
  run.answer = answer;
  run.tool = call.name;
  run.command = call.command;
  run.suffix = suffixKept(call);
  run.acted = acts(actions);
}
