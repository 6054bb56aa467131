/**
 * The operator's terminal: what the breaker did, on the stderr of the process
 * that runs DSH (rc.8 prints nothing of a plugin's logger; `console.warn`
 * reaches the terminal of `dsh --profile headless` and of `dsh web`).
 *
 * It follows turns as the session log records them (`session/event`:
 * `turn/start`, `turn/end`, whatever ended the turn: completed, blocked,
 * stopped, an error), and says, per turn of a session:
 *
 * - one line when the gate closes on a loop: the first refusal of measures not
 *   refused yet this turn (an ask says so once it is answered, and how); the
 *   loop's later refused calls add no line;
 * - one line per advisory (they come at a few fixed counts);
 * - at the turn's end, when it gated, one summary: loops gated, calls refused,
 *   and the calls those loops ran, their cost (docs/operator.md); when the
 *   breaker ended the turn (`stopAfter`), the summary says so, and what it
 *   stopped.
 *
 * A call outside a turn the host reported (a host with no session log, the
 * replay tools, the tests' fake hosts) writes nothing. Every book is bounded;
 * a sink that throws loses the line, never the call.
 */
import type { GateEvent } from '../breaker/breaker.js';
import type { Agent, Notice } from '../host/types.js';
import { safeMember } from '../host/member.js';
import { BOOK_LIMIT, keep } from '../memory/book.js';
import { advisoryLine, gateLine } from '../text/log-line.js';
import { answeredLine, stopLine, summaryLine, terminalLine } from '../text/terminal.js';
import type { StopFacts } from '../text/stop.js';
import type { Mark } from '../call/mark.js';

/** Writes one line to the terminal. */
export type Sink = (line: string) => void;

/** stderr, through `console.warn` (the `%s` keeps a `%` of the model's from being read as a format). */
export const toStderr: Sink = (line) => console.warn('%s', line);

/** Most loops a turn's report keeps the measures of, for their cost; later ones are still counted. */
const LOOPS_KEPT = 64;

/** One turn of one session, from its `turn/start` to its `turn/end`. */
interface TurnReport {
  readonly turn: number | undefined;
  loops: number;
  refused: number;
  /** Keys the gate has closed on this turn (ever: a loop is counted once). */
  readonly gated: Set<string>;
  /** Keys the gate holds closed now (an approval opens them; a line is said when one closes). */
  readonly closed: Set<string>;
  /** Each loop's keys its cost is counted under (`costKeys`). */
  readonly loopKeys: string[][];
  /** Some loop's cost is a lower bound (a cycle's: its stopped call's runs). */
  atLeast: boolean;
  /** Calls that ran this turn, per key. */
  readonly ran: Map<string, number>;
  /** The breaker ended the turn: the loop it stopped. */
  stop?: StopFacts;
}

export interface Terminal {
  /** `session/event`: a turn opens and ends with the session's records. */
  record(session: unknown, event: unknown): void;
  /** The breaker's gate hook. */
  gate(event: GateEvent): void;
  /** The breaker's hook for a call let through to its body. */
  passed(agent: Agent, marks: readonly Mark[]): void;
  /** The advisories among a call's notices, for the agent whose turn it is. */
  advisories(agent: unknown, notices: readonly Notice[]): void;
  /** The breaker is ending the agent's turn: the turn's end says so. */
  stopped(agent: unknown, facts: StopFacts): void;
}

function added(set: Set<string>, keys: readonly string[]): boolean {
  let grew = false;
  for (const key of keys) {
    if (set.has(key) || set.size >= BOOK_LIMIT) continue;
    set.add(key);
    grew = true;
  }
  return grew;
}

/** What the loops of a turn ran: for each, the most calls that ran with one of its keys. */
function loopCost(report: TurnReport): number {
  let total = 0;
  for (const keys of report.loopKeys) total += Math.max(0, ...keys.map((key) => report.ran.get(key) ?? 0));
  return total;
}

/**
 * The keys a loop's cost is counted under: its hits' that are measures of the
 * call. A hit under a track's own key (a cycle's, the environment track's)
 * counts the stopped call's `exact:` measure instead, the runs of that one
 * call: a lower bound (`atLeast`). Never the call's other measures: a broad
 * one (`prog:`, `act:`) counts calls outside the loop.
 */
function costKeys(report: TurnReport, keys: readonly string[], marks: readonly Mark[]): string[] {
  const measures = keys.filter((key) => marks.some((mark) => mark.key === key));
  const exact = marks[0]?.key;
  if (measures.length > 0 || exact === undefined) return measures;
  report.atLeast = true;
  return [exact];
}

/** A gate event on an open turn: the line it is worth, if any, and the turn's counts. */
function tally(report: TurnReport, event: GateEvent): string | undefined {
  const keys = event.hits.map((hit) => hit.key);
  if (event.outcome === 'asked') return undefined;
  if (event.outcome === 'approved') {
    for (const key of keys) report.closed.delete(key);
  } else report.refused += 1;
  if (added(report.gated, keys)) {
    report.loops += 1;
    if (report.loopKeys.length < LOOPS_KEPT) report.loopKeys.push(costKeys(report, keys, event.marks));
    else report.atLeast = true;
  }
  if (event.outcome === 'approved') return answeredLine('approved', event.name, event.hits);
  if (!added(report.closed, keys)) return undefined;
  return event.outcome === 'refused' ? answeredLine(event.answer, event.name, event.hits) : gateLine(event.outcome, event.name, event.hits);
}

export function createTerminal(sink: Sink): Terminal {
  const reports = new WeakMap<object, TurnReport>();
  const write = (text: string): void => {
    try {
      sink(terminalLine(text));
    } catch {
      // A closed stderr loses the line, never the call.
    }
  };
  const reportOf = (agent: unknown): TurnReport | undefined => {
    const session = safeMember(agent, 'session');
    return typeof session === 'object' && session !== null ? reports.get(session) : undefined;
  };
  return {
    record(session, event) {
      if (typeof session !== 'object' || session === null) return;
      const type = safeMember(event, 'type');
      if (type !== 'turn/start' && type !== 'turn/end') return;
      const data = safeMember(event, 'data');
      const turn = safeMember(data, 'turn');
      if (type === 'turn/start') {
        reports.set(session, { turn: typeof turn === 'number' ? turn : undefined, loops: 0, refused: 0, gated: new Set(), closed: new Set(), loopKeys: [], atLeast: false, ran: new Map() });
        return;
      }
      const report = reports.get(session);
      reports.delete(session);
      if (report === undefined || (report.loops === 0 && report.refused === 0)) return;
      const ending = safeMember(safeMember(data, 'reason'), 'kind');
      const tally = { loops: report.loops, refused: report.refused, ran: loopCost(report), atLeast: report.atLeast };
      write(report.stop === undefined ? summaryLine(report.turn, typeof ending === 'string' ? ending : undefined, tally) : stopLine(report.turn, report.stop, tally));
    },
    gate(event) {
      const report = reportOf(event.agent);
      const line = report === undefined ? undefined : tally(report, event);
      if (line !== undefined) write(line);
    },
    passed(agent, marks) {
      const report = reportOf(agent);
      if (report === undefined) return;
      // The oldest keys go past BOOK_LIMIT: a loop late in a long turn is still counted.
      for (const { key } of marks) keep(report.ran, key, (report.ran.get(key) ?? 0) + 1);
    },
    stopped(agent, facts) {
      const report = reportOf(agent);
      if (report !== undefined) report.stop = facts;
    },
    advisories(agent, notices) {
      if (notices.length === 0 || reportOf(agent) === undefined) return;
      for (const notice of notices) {
        const summary = safeMember(safeMember(notice, 'source'), 'summary');
        if (typeof summary === 'string') write(advisoryLine(summary));
      }
    },
  };
}
