/**
 * The operator's terminal: the lines the plugin writes to the stderr of the
 * process that runs DSH (`dsh --profile headless`, `dsh web`), where rc.8
 * shows nothing of the plugin otherwise (plugin/terminal.ts decides when).
 * Each line starts with the plugin's name, says one thing, and is bounded:
 * the model's text comes only as P15's quotations (text/log-line.ts), and the
 * whole line is cut at `TERMINAL_CHARS` all the same.
 */
import { gateWords, type LineHit } from './log-line.js';
import type { AskOutcome } from './message.js';
import { PLUGIN_NAME } from './notice.js';
import { stoppedLoop, type StopFacts } from './stop.js';

/** Most characters of one terminal line, its prefix included. */
export const TERMINAL_CHARS = 400;

/** A line as the terminal gets it: the plugin's name first, one line, cut at `TERMINAL_CHARS`. */
export function terminalLine(text: string): string {
  // Only our own words can hold a newline here (the model's text is quoted with escapes): still one line.
  const line = `${PLUGIN_NAME}: ${text.replace(/[\r\n]+/g, ' ')}`;
  return line.length <= TERMINAL_CHARS ? line : `${line.slice(0, TERMINAL_CHARS - 1)}\u2026`;
}

/** What became of an ask, as the gate line says it; `undefined`: the host did not say. */
const ANSWERED: Readonly<Record<AskOutcome | 'approved', string>> = {
  approved: 'asked the operator, allowed once',
  rejected: 'asked the operator, rejected',
  unattended: 'asked, no operator could answer',
  cancelled: 'asked the operator, the ask was withdrawn',
};

/** An ask's answer: `gate, asked, no operator could answer: bash, exact “…” 12/12`. */
export function answeredLine(answer: AskOutcome | 'approved' | undefined, name: string, hits: readonly LineHit[]): string {
  return gateWords(answer === undefined ? 'asked the operator, not approved' : ANSWERED[answer], name, hits, true);
}

/** How a turn ended, from DSH's `turn/end` record (`reason.kind`); another kind is not quoted. */
const ENDINGS: ReadonlyMap<string, string> = new Map([
  ['completed', 'ended'],
  ['blocked', 'was ended by a plugin before its next step'],
  ['aborted', 'was stopped'],
  ['interrupted', 'was interrupted'],
  ['error', 'ended in an error'],
  ['max-tokens', 'ended at the model’s output limit'],
]);

/** What a turn cost in loops: the loops the gate closed on, the calls it refused, the calls of those loops that ran. */
export interface TurnTally {
  readonly loops: number;
  readonly refused: number;
  readonly ran: number;
  /** `ran` is a lower bound: a loop was gated under a key of a track's own (a cycle), counted by its stopped call's runs. */
  readonly atLeast?: boolean;
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The turn's tally in words: `1 loop gated, 9 calls refused; the loop ran 11 calls`. */
function tallyWords(tally: TurnTally): string {
  const them = tally.loops === 1 ? 'the loop' : 'the loops';
  const ran = `${tally.atLeast === true ? 'at least ' : ''}${count(tally.ran, 'call', 'calls')}`;
  return `${count(tally.loops, 'loop', 'loops')} gated, ${count(tally.refused, 'call', 'calls')} refused; ${them} ran ${ran}`;
}

function turnName(turn: number | undefined): string {
  return turn === undefined ? 'the turn' : `turn ${turn}`;
}

/** `turn 2 ended: 1 loop gated, 9 calls refused; the loop ran 11 calls`. */
export function summaryLine(turn: number | undefined, ending: string | undefined, tally: TurnTally): string {
  const ended = (ending === undefined ? undefined : ENDINGS.get(ending)) ?? 'ended';
  return `${turnName(turn)} ${ended}: ${tallyWords(tally)}`;
}

/**
 * A turn the breaker ended (`stopAfter`), in place of its summary: what was
 * stopped, after how many refusals, and the turn's tally with the loops' cost.
 * `turn 2 stopped by the loop breaker after 3 refused calls of one loop
 * (stopAfter: 3): “bash”, cmd “echo hi”; 1 loop gated, 3 calls refused; the loop ran 11 calls`.
 */
export function stopLine(turn: number | undefined, facts: StopFacts, tally: TurnTally): string {
  return (
    `${turnName(turn)} stopped by the loop breaker after ${count(facts.knocks, 'refused call', 'refused calls')} of one loop ` +
    `(stopAfter: ${facts.stopAfter}): ${stoppedLoop(facts)}; ${tallyWords(tally)}`
  );
}
