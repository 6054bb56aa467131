/**
 * A parity run: generate sessions from a seed, run each through two plugins,
 * count sessions, calls and mismatches, and shrink the first few mismatches into
 * printable reproductions.
 */
import type { PluginModule } from '../support/fake-host.js';
import { compareRuns, compareSession, runSession, type Run } from './driver.js';
import { generateSession } from './generator.js';
import type { ObserveOptions } from './observe.js';
import { renderRepro } from './repro.js';
import { callCount, poolCount, type Session } from './session.js';
import { shrink } from './shrink.js';

export interface RunOptions {
  left: PluginModule;
  right: PluginModule;
  leftName?: string;
  rightName?: string;
  sessions: number;
  seed: number;
  /** First session index (default 0). */
  from?: number;
  /** How many mismatches to shrink and print (default 3). */
  reports?: number;
  /** Re-run budget of the shrinker per mismatch. */
  shrinkAttempts?: number;
  onMismatch?: (session: Session) => void;
  /** What the views include beyond the defaults. */
  observe?: ObserveOptions;
  /** Stop after this many mismatching sessions (default: run them all). */
  stopAfter?: number;
  /** Generate pools of parallel calls (default true; false reproduces the sessions of before). */
  pools?: boolean;
}

export interface Report {
  id: string;
  originalSteps: number;
  shrunkSteps: number;
  fields: string[];
  text: string;
}

/** How much of the behaviour the sessions reached (counted on the right-hand, expected side). */
export interface Coverage {
  asked: number;
  blocked: number;
  hostDenied: number;
  repeatHits: number;
  failureHits: number;
  occurrenceNotices: number;
  failureNotices: number;
  cutSummaries: number;
  quotingDenials: number;
}

function tallyCoverage(coverage: Coverage, run: Run): void {
  for (const view of run.views) {
    if (view === null || 'threw' in view) continue;
    if (view.asked) coverage.asked += 1;
    if (view.denial === 'REPEAT_TOOL_BLOCKED') coverage.blocked += 1;
    else if (view.denial !== null) coverage.hostDenied += 1;
    if (view.quotes.length > 0) coverage.quotingDenials += 1;
    for (const hit of view.hits) {
      if (hit.startsWith('repeat ')) coverage.repeatHits += 1;
      else coverage.failureHits += 1;
    }
    for (const notice of view.notices) {
      const summary = String(notice.summary);
      if (/ failed x\d+$/.test(summary)) coverage.failureNotices += 1;
      else coverage.occurrenceNotices += 1;
      if (summary.includes('\u2026')) coverage.cutSummaries += 1;
    }
  }
}

export interface RunStats {
  coverage: Coverage;
  sessions: number;
  calls: number;
  /** Model steps of two or more parallel calls, and the calls they hold. */
  pools: number;
  pooledCalls: number;
  badConfigs: number;
  mismatches: number;
  mismatchIds: string[];
  reports: Report[];
  ms: number;
}

export async function runParity(options: RunOptions): Promise<RunStats> {
  const started = performance.now();
  const leftName = options.leftName ?? 'left';
  const rightName = options.rightName ?? 'right';
  const from = options.from ?? 0;
  const maxReports = options.reports ?? 3;
  const observeOptions = options.observe ?? {};
  const stats: RunStats = {
    coverage: { asked: 0, blocked: 0, hostDenied: 0, repeatHits: 0, failureHits: 0, occurrenceNotices: 0, failureNotices: 0, cutSummaries: 0, quotingDenials: 0 },
    sessions: 0,
    calls: 0,
    pools: 0,
    pooledCalls: 0,
    badConfigs: 0,
    mismatches: 0,
    mismatchIds: [],
    reports: [],
    ms: 0,
  };
  for (let index = from; index < from + options.sessions; index += 1) {
    const session = generateSession(options.seed, index, { pools: options.pools ?? true });
    stats.sessions += 1;
    stats.calls += callCount(session);
    const pooled = poolCount(session);
    stats.pools += pooled.pools;
    stats.pooledCalls += pooled.calls;
    const [a, b] = [await runSession(options.left, session, observeOptions), await runSession(options.right, session, observeOptions)];
    if (b.configError !== null) stats.badConfigs += 1;
    tallyCoverage(stats.coverage, b);
    const mismatch = compareRuns(a, b);
    if (mismatch === null) continue;
    stats.mismatches += 1;
    stats.mismatchIds.push(session.id);
    options.onMismatch?.(session);
    const stop = options.stopAfter !== undefined && stats.mismatches >= options.stopAfter;
    if (stats.reports.length >= maxReports) {
      if (stop) break;
      continue;
    }
    const fails = async (candidate: Session): Promise<boolean> => (await compareSession(options.left, options.right, candidate, observeOptions)) !== null;
    const shrunk = await shrink(session, fails, options.shrinkAttempts ?? 3000);
    const left = await runSession(options.left, shrunk.session, observeOptions);
    const right = await runSession(options.right, shrunk.session, observeOptions);
    const final = compareRuns(left, right) ?? mismatch;
    stats.reports.push({
      id: session.id,
      originalSteps: session.steps.length,
      shrunkSteps: shrunk.session.steps.length,
      fields: final.fields,
      text: renderRepro({
        session: shrunk.session,
        originalSteps: session.steps.length,
        attempts: shrunk.attempts,
        mismatch: final,
        expected: right,
        leftName,
        rightName,
        details: observeOptions.details === true,
      }),
    });
    if (stop) break;
  }
  stats.ms = performance.now() - started;
  return stats;
}
