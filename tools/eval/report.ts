/**
 * The eval's tables: the metrics table of the corpus README (one row per
 * system), per-session rows, and the ablation (the preset, then the preset
 * with each part turned off). The field and the texts and stop have tables
 * of their own (field-report.ts). Text for terminals, Markdown for docs.
 */
import { renderMarkdown, renderTable, type Cell, type Column } from '../lib/table.js';
import type { Figures, SessionResult, Spread } from './metrics.js';
import type { SystemRun } from './evaluate.js';

export function ratio(part: number, whole: number): string {
  return `${part}/${whole}`;
}

export function spreadText(spread: Spread | undefined): string {
  return spread === undefined ? '—' : `${spread.median}/${spread.max}`;
}

/** Short titles under group headings, so that the table fits 100 columns; LEGEND says what they mean. */
export const FIGURE_COLUMNS: readonly Column[] = [
  { group: 'loops', title: 'noticed', right: true },
  { group: 'loops', title: 'gated', right: true },
  { group: 'loops', title: 'calls run', right: true },
  { group: 'calls to', title: 'notice', right: true },
  { group: 'calls to', title: 'gate', right: true },
  { group: 'good runs', title: 'noticed', right: true },
  { group: 'good runs', title: 'gated', right: true },
  { group: 'progress', title: 'gated', right: true },
];

/** What the metrics table's short titles mean, printed under it. */
export const LEGEND =
  "loops calls run: the calls of the loops, from each loop's start, that the system let run.\n" +
  "calls to notice / gate: from the loop's first call to the first notice / denial, median/max.";

export function figureCells(figures: Figures, gates = true): Cell[] {
  return [
    ratio(figures.loopsNoticed, figures.loops),
    gates ? ratio(figures.loopsGated, figures.loops) : '—',
    figures.loopCallsRun,
    spreadText(figures.toNotice),
    gates ? spreadText(figures.toGate) : '—',
    ratio(figures.goodNoticed, figures.good),
    gates ? ratio(figures.goodGated, figures.good) : '—',
    gates ? ratio(figures.progressGated, figures.progress) : '—',
  ];
}

export function render(columns: readonly Column[], rows: readonly (readonly Cell[])[], markdown: boolean): string {
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

export const at = (index: number | undefined, result: SessionResult): Cell => {
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
