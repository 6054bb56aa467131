/**
 * Replaying one session log through the real `apply()`: every call goes through
 * pre-execute, the operator's answer and the guard when DSH started it, and
 * through post-execute when DSH committed its result, in DSH's commit order
 * for the calls of one step (`commit-order.ts`: in a pool of parallel-safe
 * calls, later calls pass their policy before earlier ones settle). A call the replay
 * lets run gets the result the log recorded, a call it gates runs nothing; a
 * call DSH skipped after a stop is passed over, as DSH passed it over; human
 * messages reach `agent/pre-step` and reset. The plugin's own notices in the
 * log are not fed back: the replay produces its own and counts them.
 *
 * Beside the plugin, a mirror made of the plugin's own modules (fingerprints,
 * the window, the streak book, the failure classifier) measures the session itself:
 * the peak count of each measure in the window and its longest failure streak.
 */
import { apply as pluginApply } from '../../src/index.js';
import { resolveConfig, type BreakerConfig } from '../../src/lib/config/config.js';
import { classifyFailure } from '../../src/lib/result/failure.js';
import { fingerprints, limitFor, measureOf } from '../../src/lib/call/fingerprint.js';
import { isShell } from '../../src/lib/call/read.js';
import { member } from '../../src/lib/host/member.js';
import type { ToolResult } from '../../src/lib/host/types.js';
import { CEILING_HEADLINE } from '../../src/lib/text/message.js';
import { GATE_OUTCOMES } from '../../src/lib/text/log-line.js';
import { PLUGIN_NAME } from '../../src/lib/text/notice.js';
import { compileScope } from '../../src/lib/policy/scope.js';
import { createStreakBook } from '../../src/lib/memory/streaks.js';
import { createTurns } from '../../src/lib/memory/turn.js';
import { CommitOrder } from './commit-order.js';
import { denialResult, ReplayHost, type Answer, type ApplyFunction } from './replay-host.js';
import { sessionName, type SessionEvent, type SessionLog } from './session-log.js';
import type { CallVerdict, TrajectoryEntry } from './trajectory.js';

/** An advisory's stage; `track` is one of the opt-in real-loop tracks' (stale, edit-retry, timeout). */
export type Stage = 'warn' | 'summarize' | 'fail-warn' | 'track';
/** What gated a call: one of the plugin's tracks, or the exemption ceiling (an approved exemption that covered its calls). */
export type Track = 'repeat' | 'failure' | 'sequence' | 'stale' | 'edit-retry' | 'timeout' | 'ceiling';

/** One call as the replay lived it; the shape of a `recorded.json` trajectory entry. */
export interface ReplayedCall extends TrajectoryEntry {
  /** Whether the plugin asked the operator about it. */
  readonly asked: boolean;
  /** The tracks that gated it (empty when it ran). */
  readonly tracks: readonly Track[];
  /** The replay ran a call the live session did not: its result is borrowed (see {@link inferResult}). */
  readonly inferred: boolean;
}

export interface Peak {
  readonly fingerprint: string;
  readonly count: number;
}

export interface SessionReport {
  readonly session: string;
  readonly path: string;
  readonly calls: number;
  readonly humanMessages: number;
  /** Per measure (`exact`, `cmd`, `net`, …): the most occurrences of one fingerprint in the window. */
  readonly peaks: Readonly<Record<string, Peak>>;
  /** Per measure: the longest run of consecutive failures of one fingerprint. */
  readonly failureStreaks: Readonly<Record<string, Peak>>;
  /** Per stage; `track` only when the config turns on a real-loop track. */
  readonly advisories: Readonly<Record<Exclude<Stage, 'track'>, number>> & { readonly track?: number };
  readonly asked: number;
  readonly denied: number;
  readonly deniedBy: Readonly<Record<'plugin' | 'approval', number>>;
  /** Per track, the denied calls it gated; `sequence` and `ceiling` only when the config turns them on. */
  readonly gatedBy: Readonly<Record<'repeat' | 'failure', number>> & {
    readonly sequence?: number;
    readonly stale?: number;
    readonly 'edit-retry'?: number;
    readonly timeout?: number;
    readonly ceiling?: number;
  };
  /** Calls the replay let run that the live session did not, so their results were borrowed. */
  readonly inferred: number;
  /** Calls DSH skipped after a stop, never seen by the plugin (counted in `calls`). */
  readonly skipped: number;
  readonly trajectory: readonly ReplayedCall[];
  readonly warnings: readonly string[];
}

export interface ReplayOptions {
  /** The plugin config as a user writes it (merged over the defaults by the plugin). */
  readonly config?: unknown;
  /** How the operator answers an ask. Default `none`, what headless DSH does. */
  readonly answer?: Answer;
  /** Another build of the plugin (e.g. `dist/`); default the source. */
  readonly apply?: ApplyFunction;
}

const SUMMARY_FAILURE = / failed x(\d+)$/;
/** The stale, edit-retry and timeout tracks' summaries (notice.ts, edit-retry.ts, timeout.ts). */
const SUMMARY_TRACK = / (?:same result|rejected|timed out) x(\d+)$/;
const SUMMARY_OCCURRENCE = / \u00d7 (\d+)$/;

/** The stage of one of our notices, read from its summary as the plugin writes it (notice.ts). */
export function stageOf(summary: string, cfg: Pick<BreakerConfig, 'summarizeAt'>): Stage | undefined {
  if (SUMMARY_FAILURE.test(summary)) return 'fail-warn';
  if (SUMMARY_TRACK.test(summary)) return 'track';
  const occurrence = SUMMARY_OCCURRENCE.exec(summary);
  if (occurrence?.[1] === undefined) return undefined;
  return Number(occurrence[1]) === cfg.summarizeAt ? 'summarize' : 'warn';
}

const TRACKS = ['repeat', 'failure', 'sequence', 'stale', 'edit-retry', 'timeout'] as const;
/** The denial names its tracks as "by the repeat track", "by the repeat and failure tracks", "by the repeat, failure and sequence tracks". */
const DENIED_BY = /by the ([a-z, -]+?) tracks? of the loop breaker/;
/** A gate line of the plugin's log (text/log-line.ts) lists each track that hit under its name: `…: bash, repeat: exact “…” 12/12; stale: …`. */
const LINE_TRACK = /(?:, |; )([a-z][a-z-]*): /g;
/** The quotations of a log line (P15): the model's text, never a track's name. */
const QUOTATION = /\u201c[^\u201d]*\u201d/g;

/**
 * The tracks that gated a call, in track order: those its gate lines in the
 * plugin's log list (text/log-line.ts), and those a denial names;
 * `ceiling` alone for a denial at the exemption ceiling.
 */
export function tracksIn(text: string, logged: readonly string[] = []): Track[] {
  // The plugin's own words (message.ts, log-line.ts), so a rewording cannot slip past the replay.
  if (text.includes(`call not run: ${CEILING_HEADLINE}`) || logged.some((line) => line.startsWith(`gate, ${GATE_OUTCOMES.ceiling}:`))) return ['ceiling'];
  const named = new Set(DENIED_BY.exec(text)?.[1]?.split(/, | and /) ?? []);
  for (const line of logged) {
    if (!line.startsWith('gate, ')) continue;
    for (const [, track] of line.replace(QUOTATION, '\u201c\u201d').matchAll(LINE_TRACK)) named.add(track as string);
  }
  return TRACKS.filter((track) => named.has(track));
}

/** A logged result as post-execute saw it; the error code goes where the host puts it (`error.info.code`). */
export function toolResultOf(event: Extract<SessionEvent, { kind: 'result' }>): ToolResult {
  if (!event.isError) return { isError: false, content: event.content };
  const info = event.error === undefined ? {} : { info: { code: event.error.code, name: event.error.name } };
  return { isError: true, content: event.content, error: { message: event.text, ...info } };
}

/** Which layer refused a call in the live session: an ask that was not granted, or the plugin's denial. */
function refusedBy(
  callId: string,
  text: string,
  asks: ReadonlyMap<string, string>,
  decisions: ReadonlyMap<string, string>,
): 'plugin' | 'approval' | undefined {
  const ask = asks.get(callId);
  if (ask !== undefined && decisions.get(ask) !== 'allowed-once') return 'approval';
  return text.startsWith('Error: REPEAT_TOOL_BLOCKED:') ? 'plugin' : undefined;
}

/**
 * Measures the session with the plugin's own modules, independent of gating:
 * occurrences in the window (reset by a human message) and failure streaks of
 * the results that really ran.
 */
class Mirror {
  private readonly window;
  private readonly failures = createStreakBook();
  private readonly tracked;
  private readonly agent = {};
  readonly peaks: Record<string, Peak> = {};
  readonly streaks: Record<string, Peak> = {};

  constructor(private readonly cfg: BreakerConfig) {
    this.window = createTurns(cfg.window);
    this.tracked = compileScope(cfg);
  }

  fingerprintsOf(name: string, args: unknown): string[] {
    return this.tracked(name) ? fingerprints({ name, args }, this.cfg).fps : [];
  }

  /** Only measures with a cap under this config take part in either track; the rest are not reported. */
  private capped(fps: readonly string[]): string[] {
    return fps.filter((fp) => Number.isFinite(limitFor(fp, this.cfg.limits)));
  }

  count(fps: readonly string[]): void {
    // Every measure takes its slot in the window, as in the breaker; only capped ones are reported.
    this.window.commit(this.agent, fps);
    const tally = this.window.tally(this.agent);
    for (const fp of this.capped(fps)) raise(this.peaks, fp, tally.get(fp)?.count ?? 0);
  }

  settle(name: string, args: unknown, fps: readonly string[], result: ToolResult): void {
    const command = member(args, 'command');
    const failure = classifyFailure(result, { shell: isShell(name), ...(typeof command === 'string' ? { command } : {}) });
    const capped = this.capped(fps);
    this.failures.settle(this.agent, capped, failure).forEach((streak, at) => raise(this.streaks, capped[at] ?? '', streak));
  }

  reset(): void {
    this.window.reset(this.agent);
    this.failures.reset(this.agent);
  }
}

function raise(book: Record<string, Peak>, fp: string, count: number): void {
  const measure = measureOf(fp);
  if (count > (book[measure]?.count ?? 0)) book[measure] = { fingerprint: fp, count };
}

interface Pending {
  readonly exec: object;
  readonly entry: {
    call: number;
    tool: string;
    outcome: 'ran' | 'denied' | 'skipped';
    by?: 'plugin' | 'approval';
    notices: string[];
    asked: boolean;
    tracks: Track[];
    inferred: boolean;
  };
  readonly fps: string[];
  readonly args: unknown;
  /** What post-execute sees when the call's turn to commit comes: the replay's denial, or the call's result. */
  result: ToolResult | undefined;
}

/** Replays one parsed log. Never throws for anything in the log; a bad config throws (it is the caller's). */
export async function replaySession(log: SessionLog, options: ReplayOptions = {}): Promise<SessionReport> {
  const cfg = resolveConfig(options.config ?? {});
  const host = new ReplayHost(options.apply ?? (pluginApply as unknown as ApplyFunction), options.config ?? {});
  const answer = options.answer ?? 'none';
  const mirror = new Mirror(cfg);
  const agent = {};
  const pending = new Map<string, Pending>();
  const trajectory: Pending['entry'][] = [];
  const asks = new Map<string, string>();
  const decisions = new Map<string, string>();
  /** The last real result per `exact:` fingerprint, for calls the live session never ran. */
  const lastRun = new Map<string, ToolResult>();
  const trackOn = cfg.stale !== null || cfg.editRetry !== null || cfg.timeouts !== null;
  const advisories: Record<Stage, number> = { warn: 0, summarize: 0, 'fail-warn': 0, track: 0 };
  const warnings = [...log.warnings];
  let humanMessages = 0;

  const commits = new CommitOrder<Pending>(async (call) => {
    // Only a call with a result is ever ready to commit.
    if (call.result === undefined) return;
    for (const notice of await host.settle(call.exec, call.result)) {
      const source = member(notice, 'source');
      const summary = member(source, 'summary');
      if (member(source, 'plugin') !== PLUGIN_NAME || typeof summary !== 'string') continue;
      call.entry.notices.push(summary);
      const stage = stageOf(summary, cfg);
      if (stage !== undefined) advisories[stage] += 1;
    }
  });

  for (const event of log.events) {
    switch (event.kind) {
      case 'human': {
        humanMessages += 1;
        // A human message is claimed at a step boundary: the step before it has settled.
        await commits.flush();
        const message = {
          id: `replay-${event.seq}`,
          role: 'user',
          content: [{ type: 'text', text: event.text }],
          source: { kind: 'user' },
        };
        await host.step(agent, [message]);
        mirror.reset();
        break;
      }
      case 'call': {
        if (pending.has(event.callId)) {
          warnings.push(`call id ${event.callId} logged twice; the second is ignored`);
          break;
        }
        const exec = { callId: event.callId, name: event.name, arguments: event.arguments, agent, signal: new AbortController().signal };
        if (event.skipped) {
          // Stopped before it started: no hook saw it live, so none sees it here.
          const entry: Pending['entry'] = {
            call: trajectory.length + 1,
            tool: event.name,
            outcome: 'skipped',
            notices: [],
            asked: false,
            tracks: [],
            inferred: false,
          };
          trajectory.push(entry);
          pending.set(event.callId, { exec, entry, fps: [], args: event.arguments, result: undefined });
          break;
        }
        const fps = mirror.fingerprintsOf(event.name, event.arguments);
        mirror.count(fps);
        await commits.enter(event.step);
        const gate = await host.gate(exec, answer);
        const entry: Pending['entry'] = {
          call: trajectory.length + 1,
          tool: event.name,
          outcome: gate.denied === undefined ? 'ran' : 'denied',
          notices: [],
          asked: gate.asked !== undefined,
          tracks: gate.denied === undefined ? [] : tracksIn(gate.denied, gate.logged),
          inferred: false,
        };
        if (gate.by !== undefined) entry.by = gate.by;
        trajectory.push(entry);
        const call: Pending = { exec, entry, fps, args: event.arguments, result: undefined };
        pending.set(event.callId, call);
        commits.add(call);
        // Nothing runs for a gated call: its result, the host's error, is ready at once.
        if (gate.denied !== undefined) {
          call.result = denialResult(gate.denied);
          await commits.ready(call);
        }
        break;
      }
      case 'result': {
        const call = pending.get(event.callId);
        if (call === undefined) {
          warnings.push(`result for unknown call id ${event.callId} ignored`);
          break;
        }
        if (call.entry.outcome === 'skipped') break;
        // A result the live session really got, or `undefined` when its call was refused live.
        const recorded = refusedBy(event.callId, event.text, asks, decisions) === undefined ? toolResultOf(event) : undefined;
        const exact = call.fps[0];
        if (recorded !== undefined) {
          mirror.settle(call.entry.tool, call.args, call.fps, recorded);
          if (exact !== undefined) lastRun.set(exact, recorded);
        }
        // A call the replay refused is already ready (and maybe committed).
        if (call.result !== undefined) break;
        if (recorded === undefined) call.entry.inferred = true;
        call.result = recorded ?? inferResult(exact === undefined ? undefined : lastRun.get(exact));
        await commits.ready(call);
        break;
      }
      case 'asked':
        if (event.callId !== undefined) asks.set(event.callId, event.id);
        break;
      case 'decided':
        decisions.set(event.id, event.outcome);
        break;
      case 'notice':
        break;
    }
  }
  await commits.flush();
  host.dispose();

  const denied = trajectory.filter((entry) => entry.outcome === 'denied');
  return {
    session: sessionName(log.path),
    path: log.path,
    calls: trajectory.length,
    humanMessages,
    peaks: mirror.peaks,
    failureStreaks: mirror.streaks,
    advisories: trackOn ? advisories : { warn: advisories.warn, summarize: advisories.summarize, 'fail-warn': advisories['fail-warn'] },
    asked: trajectory.filter((entry) => entry.asked).length,
    denied: denied.length,
    deniedBy: {
      plugin: denied.filter((entry) => entry.by === 'plugin').length,
      approval: denied.filter((entry) => entry.by === 'approval').length,
    },
    gatedBy: {
      repeat: denied.filter((entry) => entry.tracks.includes('repeat')).length,
      failure: denied.filter((entry) => entry.tracks.includes('failure')).length,
      ...(cfg.sequence === null ? {} : { sequence: denied.filter((entry) => entry.tracks.includes('sequence')).length }),
      ...(cfg.stale === null ? {} : { stale: denied.filter((entry) => entry.tracks.includes('stale')).length }),
      ...(cfg.editRetry === null ? {} : { 'edit-retry': denied.filter((entry) => entry.tracks.includes('edit-retry')).length }),
      ...(cfg.timeouts === null ? {} : { timeout: denied.filter((entry) => entry.tracks.includes('timeout')).length }),
      ...(cfg.exemptionCeiling === null ? {} : { ceiling: denied.filter((entry) => entry.tracks.includes('ceiling')).length }),
    },
    inferred: trajectory.filter((entry) => entry.inferred).length,
    skipped: trajectory.filter((entry) => entry.outcome === 'skipped').length,
    trajectory,
    warnings,
  };
}

/**
 * The result of a call the replay lets run but the live session never ran. The
 * log cannot say what it would have returned; the best evidence is the last
 * real result of the same action (`exact:` fingerprint), else an empty success.
 */
export function inferResult(previous: ToolResult | undefined): ToolResult {
  return previous ?? { isError: false, content: [] };
}

/** What the live session shows for one call: whether it ran and, if not, which layer refused it. */
export type LiveCall = CallVerdict;

/**
 * The live verdicts as the log itself shows them, read independently of
 * `recorded.json` so the fidelity test can check both: each call's outcome and
 * the summaries of this plugin's notices, in conversation order.
 */
export function liveVerdicts(log: SessionLog): { calls: LiveCall[]; notices: string[] } {
  const asks = new Map<string, string>();
  const decisions = new Map<string, string>();
  for (const event of log.events) {
    if (event.kind === 'asked' && event.callId !== undefined) asks.set(event.callId, event.id);
    if (event.kind === 'decided') decisions.set(event.id, event.outcome);
  }
  const calls = log.steps.map((step, at): LiveCall => {
    if (step.skipped) return { call: at + 1, tool: step.name, outcome: 'skipped' };
    const by = refusedBy(step.callId, step.text, asks, decisions);
    return by === undefined ? { call: at + 1, tool: step.name, outcome: 'ran' } : { call: at + 1, tool: step.name, outcome: 'denied', by };
  });
  const notices = log.notices.filter((notice) => notice.plugin === PLUGIN_NAME).map((notice) => notice.summary ?? '');
  return { calls, notices };
}
