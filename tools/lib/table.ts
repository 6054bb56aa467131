/**
 * Plain-text tables for terminals and for docs: one header row, a rule, then
 * the rows; numbers right-aligned, text left-aligned. Columns that share a
 * `group` get it on a row of its own above theirs, once, so that titles stay
 * short and the table narrow. `markdown` renders the same cells as a GitHub
 * table for docs, each title with its group in front.
 */

export type Cell = string | number;

export interface Column {
  readonly title: string;
  /** Right-align (numbers). Default: right when every cell in the column is a number. */
  readonly right?: boolean;
  /** A heading over this column and the adjacent ones with the same group. */
  readonly group?: string;
}

/** Runs of adjacent columns with one group: their first and last index. */
function groupRuns(columns: readonly Column[]): { group: string; from: number; to: number }[] {
  const runs: { group: string; from: number; to: number }[] = [];
  columns.forEach((column, at) => {
    const last = runs.at(-1);
    if (column.group === undefined) return;
    if (last !== undefined && last.group === column.group && last.to === at - 1) last.to = at;
    else runs.push({ group: column.group, from: at, to: at });
  });
  return runs;
}

function aligned(columns: readonly Column[], rows: readonly (readonly Cell[])[]): boolean[] {
  return columns.map(
    (column, at) => column.right ?? rows.every((row) => typeof row[at] === 'number' || row[at] === undefined || row[at] === '-'),
  );
}

/** Renders a table with two spaces between columns; cells past the columns are ignored. */
export function renderTable(columns: readonly Column[], rows: readonly (readonly Cell[])[]): string {
  const right = aligned(columns, rows);
  const text = rows.map((row) => columns.map((_, at) => String(row[at] ?? '')));
  const widths = columns.map((column, at) => Math.max(column.title.length, ...text.map((row) => (row[at] ?? '').length)));
  const runs = groupRuns(columns);
  for (const run of runs) {
    // A group wider than its columns widens the last of them.
    const span = widths.slice(run.from, run.to + 1).reduce((sum, width) => sum + width, 0) + 2 * (run.to - run.from);
    if (run.group.length > span) widths[run.to] = (widths[run.to] ?? 0) + run.group.length - span;
  }
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, at) => (right[at] === true ? cell.padStart(widths[at] ?? 0) : cell.padEnd(widths[at] ?? 0)))
      .join('  ')
      .trimEnd();
  const head = [line(columns.map((column) => column.title)), line(widths.map((width) => '-'.repeat(width)))];
  if (runs.length > 0) {
    let groups = '';
    for (const run of runs) {
      const start = widths.slice(0, run.from).reduce((sum, width) => sum + width + 2, 0);
      groups = groups.padEnd(start) + run.group;
    }
    head.unshift(groups);
  }
  return [...head, ...text.map(line)].join('\n');
}

/** The same table as GitHub-flavoured Markdown. */
export function renderMarkdown(columns: readonly Column[], rows: readonly (readonly Cell[])[]): string {
  const right = aligned(columns, rows);
  const escape = (cell: Cell): string => String(cell).replace(/\|/g, '\\|');
  return [
    `| ${columns.map((column) => (column.group === undefined ? column.title : `${column.group} ${column.title}`)).join(' | ')} |`,
    `| ${columns.map((_, at) => (right[at] === true ? '---:' : '---')).join(' | ')} |`,
    ...rows.map((row) => `| ${columns.map((_, at) => escape(row[at] ?? '')).join(' | ')} |`),
  ].join('\n');
}
