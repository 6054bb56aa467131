/**
 * Replaying many files and reporting on them: one row per file (an error row
 * for a file that cannot be read, never an abort), totals across sessions, the
 * text table and the stable `--json` shape.
 */
import { measureRank } from '../../src/lib/call/fingerprint.js';
import { replaySession, type Peak, type ReplayOptions, type SessionReport } from './replay.js';
import { readSessionLog, sessionName } from './session-log.js';
import { renderTable, type Cell, type Column } from './table.js';
import type { DecodeOptions } from './zstd.js';

export interface FailedFile {
  readonly session: string;
  readonly path: string;
  readonly error: string;
}

export type FileResult = ({ readonly ok: true } & SessionReport) | ({ readonly ok: false } & FailedFile);

export interface Totals {
  readonly files: number;
  readonly failedFiles: number;
  readonly calls: number;
  readonly sessionsWarned: number;
  readonly sessionsGated: number;
  readonly advisories: number;
  readonly warn: number;
  readonly summarize: number;
  readonly failWarn: number;
  readonly asked: number;
  readonly denied: number;
  readonly inferred: number;
}

export interface RunOptions extends ReplayOptions {
  readonly decode?: DecodeOptions;
  /** Called after each file, for a progress line. */
  readonly onFile?: (done: number, total: number) => void;
}

/** Replays each file in turn; a file that cannot be read or replayed becomes an error row. */
export async function replayFiles(paths: readonly string[], options: RunOptions = {}): Promise<FileResult[]> {
  const results: FileResult[] = [];
  for (const [index, path] of paths.entries()) {
    try {
      const report = await replaySession(readSessionLog(path, options.decode), options);
      results.push({ ok: true, ...report });
    } catch (error) {
      results.push({ ok: false, session: sessionName(path), path, error: error instanceof Error ? error.message : String(error) });
    }
    options.onFile?.(index + 1, paths.length);
  }
  return results;
}

export function advisoriesOf(report: SessionReport): number {
  return report.advisories.warn + report.advisories.summarize + report.advisories['fail-warn'] + (report.advisories.track ?? 0);
}

/** A session was gated when the plugin asked about or denied at least one call. */
export function wasGated(report: SessionReport): boolean {
  return report.asked > 0 || report.deniedBy.plugin > 0;
}

export function totalsOf(results: readonly FileResult[]): Totals {
  const ok = results.filter((result): result is { ok: true } & SessionReport => result.ok);
  const sum = (pick: (report: SessionReport) => number): number => ok.reduce((total, report) => total + pick(report), 0);
  return {
    files: results.length,
    failedFiles: results.length - ok.length,
    calls: sum((report) => report.calls),
    sessionsWarned: ok.filter((report) => advisoriesOf(report) > 0).length,
    sessionsGated: ok.filter(wasGated).length,
    advisories: sum(advisoriesOf),
    warn: sum((report) => report.advisories.warn),
    summarize: sum((report) => report.advisories.summarize),
    failWarn: sum((report) => report.advisories['fail-warn']),
    asked: sum((report) => report.asked),
    denied: sum((report) => report.denied),
    inferred: sum((report) => report.inferred),
  };
}

/** The highest peak across measures (ties: the more actionable measure), as `cmd 14`. */
export function topPeak(book: Readonly<Record<string, Peak>>): string {
  const entries = Object.entries(book).filter(([, peak]) => peak.count > 0);
  if (entries.length === 0) return '-';
  entries.sort(([a, pa], [b, pb]) => pb.count - pa.count || measureRank(a) - measureRank(b));
  const [measure, peak] = entries[0] ?? ['', { count: 0 }];
  return `${measure} ${peak.count}`;
}

const sessions = (count: number): string => `${count} session${count === 1 ? '' : 's'}`;

const COLUMNS: readonly Column[] = [
  { title: 'session' },
  { title: 'calls', right: true },
  { title: 'peak', right: false },
  { title: 'warn', right: true },
  { title: 'summarize', right: true },
  { title: 'fail-warn', right: true },
  { title: 'asked', right: true },
  { title: 'denied', right: true },
  { title: 'fail streak', right: false },
];

/** The text table: one row per file, then the totals. */
export function summaryTable(results: readonly FileResult[]): string {
  const rows: Cell[][] = results.map((result) =>
    result.ok
      ? [
          result.session,
          result.calls,
          topPeak(result.peaks),
          result.advisories.warn,
          result.advisories.summarize,
          result.advisories['fail-warn'],
          result.asked,
          result.denied,
          topPeak(result.failureStreaks),
        ]
      : [result.session, 'error', '-', '-', '-', '-', '-', '-', '-'],
  );
  const totals = totalsOf(results);
  rows.push([
    `total (${sessions(totals.files - totals.failedFiles)})`,
    totals.calls,
    '',
    totals.warn,
    totals.summarize,
    totals.failWarn,
    totals.asked,
    totals.denied,
    '',
  ]);
  const notes: string[] = [];
  if (totals.failedFiles > 0) notes.push(`${totals.failedFiles} of ${totals.files} files could not be replayed:`);
  for (const result of results) if (!result.ok) notes.push(`  ${result.path}: ${result.error}`);
  const warned = results.filter((result) => result.ok && result.warnings.length > 0).length;
  if (warned > 0) notes.push(`${sessions(warned)} replayed with warnings (skipped records); --json lists them.`);
  if (totals.inferred > 0)
    notes.push(`${totals.inferred} calls ran in the replay but not live; their results were borrowed from the last identical call.`);
  return [renderTable(COLUMNS, rows), ...notes].join('\n');
}

/** The `--json` shape. Field order and names are stable; new fields are only ever added. */
export function jsonReport(results: readonly FileResult[], settings: { config: unknown; answer: string }): object {
  return { version: 1, config: settings.config, answer: settings.answer, totals: totalsOf(results), sessions: results };
}
