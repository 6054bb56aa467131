/**
 * The field's tables: this plugin's row beside each peer's (the same figures
 * as the metrics table), the dominance summary, and per loop where this
 * plugin gates against the earliest peer.
 */
import type { Cell, Column } from '../lib/table.js';
import type { Dominance } from './dominance.js';
import { SLACK } from './dominance.js';
import type { SystemRun } from './evaluate.js';
import { FIGURE_COLUMNS, figureCells, render } from './report.js';

/** What the field table's rows are, printed under it. */
export const FIELD_LEGEND =
  "the field: other agents' loop detectors (shared/field beside the repository), replayed on the same\n" +
  'calls as DSH plugins, each with the defaults its users get (OpenCode: its documented rule; as\n' +
  'shipped it reads one assistant message and cannot fire with one call per step). A peer that halts\n' +
  '(OpenHands STUCK, Gemini CLI at its 2nd detection, Qwen Code, Cline, Roo Code) denies every later\n' +
  'call of that agent.';

/** One row per system: this plugin first, then the peers (and the variants, when asked for). */
export function fieldTable(runs: readonly SystemRun[], markdown = false): string {
  const rows = runs.map((run) => [run.system, ...figureCells(run.figures, run.gates)]);
  return render([{ title: 'system' }, ...FIGURE_COLUMNS], rows, markdown);
}

/** The dominance figure in one sentence, on two lines. */
export function dominanceLine(dominance: Dominance): string {
  const head = `dominance: of the ${dominance.peerGated} ${dominance.peerGated === 1 ? 'loop' : 'loops'} a peer gates, this plugin gates ${dominance.held} no later than ${SLACK} call`;
  const misses = `${dominance.misses} ${dominance.misses === 1 ? 'miss' : 'misses'}${dominance.misses > 0 ? ' (--sessions names them)' : ''}`;
  return `${head}\nafter the earliest peer; ${misses}.`;
}

const plus = (index: number | undefined, start: number): Cell => (index === undefined ? 'never' : `${index} (+${index - start})`);

/** Per loop a peer gates: the earliest peer's gate, this plugin's, and the lag in calls. */
export function dominanceTable(dominance: Dominance, markdown = false): string {
  const columns: Column[] = [
    { title: 'session' },
    { title: 'loop start', right: true },
    { group: 'earliest peer', title: 'gate', right: true },
    { group: 'earliest peer', title: 'by' },
    { title: 'ours: gate', right: true },
    { title: 'lag', right: true },
    { title: 'miss' },
  ];
  const rows = dominance.sessions.map((row): Cell[] => [
    row.session,
    row.loopStart,
    plus(row.earliest, row.loopStart),
    row.peers.join(', '),
    plus(row.ours, row.loopStart),
    row.lag === undefined ? '—' : row.lag > 0 ? `+${row.lag}` : row.lag,
    row.miss ? 'miss' : '',
  ]);
  return render(columns, rows, markdown);
}
