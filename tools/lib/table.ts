/**
 * Plain-text tables for terminals and for docs: one header row, a rule, then
 * the rows; numbers right-aligned, text left-aligned. `markdown` renders the
 * same cells as a GitHub table for docs.
 */

export type Cell = string | number;

export interface Column {
  readonly title: string;
  /** Right-align (numbers). Default: right when every cell in the column is a number. */
  readonly right?: boolean;
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
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, at) => (right[at] === true ? cell.padStart(widths[at] ?? 0) : cell.padEnd(widths[at] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(columns.map((column) => column.title)), line(widths.map((width) => '-'.repeat(width))), ...text.map(line)].join('\n');
}

/** The same table as GitHub-flavoured Markdown. */
export function renderMarkdown(columns: readonly Column[], rows: readonly (readonly Cell[])[]): string {
  const right = aligned(columns, rows);
  const escape = (cell: Cell): string => String(cell).replace(/\|/g, '\\|');
  return [
    `| ${columns.map((column) => column.title).join(' | ')} |`,
    `| ${columns.map((_, at) => (right[at] === true ? '---:' : '---')).join(' | ')} |`,
    ...rows.map((row) => `| ${columns.map((_, at) => escape(row[at] ?? '')).join(' | ')} |`),
  ].join('\n');
}
