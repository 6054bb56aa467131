/**
 * The eval's tables: the metrics table of the corpus README (one row per
 * system), per-session rows, and the ablation (the preset, then the preset
 * with each part turned off). Text for terminals, Markdown for docs.
 */
import { renderMarkdown, renderTable, type Cell, type Column } from '../lib/table.js';
import type { Figures, SessionResult, Spread } from './metrics.js';
import type { SystemRun } from './evaluate.js';

function ratio(part: number, whole: number): string {
  return `${part}/${whole}`;
}

function spreadText(spread: Spread | undefined): string {
  return spread === undefined ? '—' : `${spread.median}/${spread.max}`;
}

const FIGURE_COLUMNS: readonly Column[] = [
  { title: 'loops noticed', right: true },
  { title: 'loops gated', right: true },
  { title: 'to notice (median/max)', right: true },
  { title: 'to gate (median/max)', right: true },
  { title: 'good noticed', right: true },
  { title: 'good gated', right: true },
  { title: 'progress gated', right: true },
  { title: 'loop calls run', right: true },
];

export function figureCells(figures: Figures, gates = true): Cell[] {
  return [
    ratio(figures.loopsNoticed, figures.loops),
    gates ? ratio(figures.loopsGated, figures.loops) : '—',
    spreadText(figures.toNotice),
    gates ? spreadText(figures.toGate) : '—',
    ratio(figures.goodNoticed, figures.good),
    gates ? ratio(figures.goodGated, figures.good) : '—',
    gates ? ratio(figures.progressGated, figures.progress) : '—',
    figures.loopCallsRun,
  ];
}

function render(columns: readonly Column[], rows: readonly (readonly Cell[])[], markdown: boolean): string {
  return markdown ? renderMarkdown(columns, rows) : renderTable(columns, rows);
}

/** One row per system; `gates` says which systems can deny at all. */
export function metricsTable(runs: readonly SystemRun[], gates: ReadonlyMap<string, boolean>, markdown = false): string {
  const rows = runs.map((run) => [run.system, ...figureCells(run.figures, gates.get(run.system) ?? true)]);
  return render([{ title: 'system' }, ...FIGURE_COLUMNS], rows, markdown);
}

/** One row per variant of the ablation: the preset, then each part turned off. */
export function ablationTable(runs: readonly SystemRun[], markdown = false): string {
  return render([{ title: 'variant' }, ...FIGURE_COLUMNS], runs.map((run) => [run.system, ...figureCells(run.figures)]), markdown);
}

const at = (index: number | undefined, result: SessionResult): Cell => {
  if (index === undefined) return '—';
  return result.class === 'loop' ? `${index} (+${index - (result.loopStart ?? 0)})` : index;
};

/** Per session: its label, and where each system first noticed and first denied. */
export function sessionsTable(runs: readonly SystemRun[], markdown = false): string {
  const columns: Column[] = [{ title: 'session' }, { title: 'class' }, { title: 'calls', right: true }, { title: 'loop start', right: true }];
  for (const run of runs) columns.push({ title: `${run.short}: notice`, right: true }, { title: `${run.short}: gate`, right: true });
  const first = runs[0];
  if (first === undefined) return '';
  const rows = first.sessions.map((session, index) => {
    const cells: Cell[] = [session.session, session.class ?? '—', session.calls, session.loopStart ?? '—'];
    for (const run of runs) {
      const result = run.sessions[index] as SessionResult;
      cells.push(at(result.firstNotice, result), at(result.firstDenial, result));
    }
    return cells;
  });
  return render(columns, rows, markdown);
}
