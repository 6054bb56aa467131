/**
 * Small helpers shared by the unit suite: a host running the port, call
 * builders, and readers for the notices a call came back with.
 */
import assert from 'node:assert/strict';
import plugin from '../../src/index.js';
import { DEFAULTS } from '../../src/lib/config/config.js';
import { bashResult, FakeHost, type Answer, type CallOutcome, type HostResult, type PluginModule } from './fake-host.js';
import { FakeSettings, withSettings } from './fake-settings.js';

export { FakeHost, bashResult, textResult } from './fake-host.js';
export type { CallOutcome, HostResult } from './fake-host.js';

/** A fake host running the port with the given config (none = defaults). */
export function newHost(config?: unknown): FakeHost {
  return new FakeHost(plugin, config);
}

/**
 * A fake host whose operator reads in `locale` (DSH's locale setting), with an
 * approval service answering `ctx.get('approval')` as in the web profile, so an
 * ask is the operator's.
 */
export function hostIn(locale: string, config?: unknown): FakeHost {
  const settings = new FakeSettings();
  settings.document.locale = { preference: locale };
  settings.register('locale', (value) => value);
  const withApproval: PluginModule = {
    apply: (ctx: Record<string, unknown>, given?: unknown) => withSettings(plugin, settings).apply({ ...ctx, get: (name: string) => (name === 'approval' ? {} : undefined) }, given),
  };
  return new FakeHost(withApproval, config);
}

/**
 * A shell call's first refusal as the model reads it whole (text/message.ts):
 * the reason, the track that stopped it, a line per hit, the track's note, the
 * last result. The fixed sentences are written out here, not read from the
 * source, so a test of the text can fail when the source changes them.
 */
export function refusalText(parts: { reason: string; track: string; hits: readonly string[]; note: string; previous: string }): string {
  return [
    `REPEAT_TOOL_BLOCKED: bash call not run: ${parts.reason}. It was stopped before it ran, by the ${parts.track} track of the loop breaker:`,
    ...parts.hits.map((hit) => `- ${hit}`),
    'Changing the description, timeoutMs, --max-time or the spelling of the host does not make it a new action.',
    parts.note,
    'Previous result:',
    parts.previous,
    'Instead: use the result you already have, take a genuinely different action, or answer with what you know now.',
  ].join('\n');
}

/** One call, minus the agent. */
export interface Call {
  name: string;
  arguments: unknown;
  answer?: Answer;
  body?: (args: unknown) => HostResult;
}

/** A bash call; the description is a decoy and never matters. */
export function bash(command: string, extra: Record<string, unknown> = {}): Call {
  return { name: 'bash', arguments: { command, description: 'run it', ...extra } };
}

/** One shell command and the exit code and output it answers with. */
export interface Run {
  command: string;
  code?: number;
  text: string;
}

/** Shell commands through `tool` for one agent, in order, under `config` (the preset, denying, unless given). */
export async function runs(tool: string, calls: readonly Run[], config: unknown = { preset: 'recommended', onLimit: 'deny' }): Promise<CallOutcome[]> {
  const host = newHost(config);
  const agent = {};
  const outcomes: CallOutcome[] = [];
  for (const { command, code = 0, text } of calls) outcomes.push(await host.call({ agent, name: tool, arguments: { command }, body: () => bashResult(code, text) }));
  return outcomes;
}

/** Run the same call `n` times for one agent, in order. */
export async function repeat(host: FakeHost, agent: object, n: number, call: Call): Promise<CallOutcome[]> {
  const out: CallOutcome[] = [];
  for (let i = 0; i < n; i += 1) out.push(await host.call({ agent, ...call }));
  return out;
}

interface NoticeLike {
  id: string;
  role: string;
  content: Array<{ type: string; text: string }>;
  source: { kind: string; plugin: string; form: string; summary: string };
}

/** The notices of one outcome, typed loosely for reading. */
export function noticesOf(outcome: CallOutcome): NoticeLike[] {
  return outcome.notices as NoticeLike[];
}

/** The `source.summary` of every notice on the outcome. */
export function summaries(outcome: CallOutcome): string[] {
  return noticesOf(outcome).map((n) => n.source.summary);
}

/**
 * A short fingerprint as an operator's text names it (P15): the measure, then
 * the rest in “ ”. Only for fingerprints that need no cut and no escape.
 */
export function shown(fp: string): string {
  const at = fp.indexOf(':');
  const rest = fp.slice(at + 1);
  if (at < 1 || rest.length > 60 || /[\u0000-\u001f\u201c\u201d]/.test(rest)) throw new Error(`shown() is for short plain fingerprints: ${fp}`);
  return `${fp.slice(0, at)} \u201c${rest}\u201d`;
}

/** The text of every notice on the outcome. */
export function noticeTexts(outcome: CallOutcome): string[] {
  return noticesOf(outcome).map((n) => n.content[0]?.text ?? '');
}

/** 1-based call numbers of the outcomes that carried at least one notice. */
export function noticedAt(outcomes: CallOutcome[]): number[] {
  const at: number[] = [];
  outcomes.forEach((o, i) => {
    if (o.notices.length > 0) at.push(i + 1);
  });
  return at;
}

/** 1-based call numbers of the outcomes that were denied. */
export function deniedAt(outcomes: CallOutcome[]): number[] {
  const at: number[] = [];
  outcomes.forEach((o, i) => {
    if (o.denied) at.push(i + 1);
  });
  return at;
}

/** The `- <fp> …` hit lines of a denial (a bullet that starts with a fingerprint). */
export function hitLines(text: string | undefined): string[] {
  return (text ?? '').split('\n').filter((line) => /^- [a-z]+:/.test(line));
}

/**
 * A host running the port with a logger (the host's `ctx.logger`, plugin/log.ts),
 * which is given one line per gate with every hit's count against its cap: a
 * loop's later refusals no longer list their hits to the model (P17), and the
 * log is where a test reads their counts.
 */
export function loggedHost(config?: unknown): { host: FakeHost; gates: string[] } {
  const gates: string[] = [];
  const logger = { info: (_format: string, line: string) => gates.push(line) };
  const host = new FakeHost({ apply: (ctx, cfg) => plugin.apply({ ...ctx, logger } as never, cfg) }, config);
  return { host, gates };
}

/** One call on a logged host, with the gate lines logged while it went through. */
export async function loggedCall(logged: { host: FakeHost; gates: string[] }, input: Parameters<FakeHost['call']>[0]): Promise<CallOutcome & { logged: string[] }> {
  const before = logged.gates.length;
  const outcome = await logged.host.call(input);
  return { ...outcome, logged: logged.gates.slice(before) };
}

/** The hits a gate line lists, each as `<measure> “<quote>” <count>/<cap>` (P15's quotation). */
export function gateHits(line: string | undefined): string[] {
  return [...(line ?? '').matchAll(/([a-z-]+) (\u201c[^\u201d]*\u201d) (\d+(?:\.\d+)?\/\d+(?:\.\d+)?)/g)].map((match) => `${match[1]} ${match[2]} ${match[3]}`);
}

/** A positive number out of the defaults (a stage or a cap), failing loudly if it is off. */
export function on(value: number | null | undefined): number {
  assert.equal(typeof value, 'number', 'expected the default to be enabled');
  return value as number;
}

/** The default occurrence cap of one measure. */
export function defaultCap(measure: string): number {
  return on((DEFAULTS.limits as unknown as Record<string, number | null>)[measure]);
}

/** A failing bash body: exit code `code`, with the harness marker. */
export function failing(code = 1, stdout = 'No such file or directory'): (args: unknown) => HostResult {
  return () => ({
    isError: false,
    value: { kind: 'foreground', exitCode: code, signal: null, timedOut: false, aborted: false, timeoutMs: 120000 },
    content: [{ type: 'text', text: `${stdout}\n[exit code: ${code}]` }],
  });
}

/** A successful bash body printing `stdout`. */
export function succeeding(stdout = 'ok'): (args: unknown) => HostResult {
  return () => ({
    isError: false,
    value: { kind: 'foreground', exitCode: 0, signal: null, timedOut: false, aborted: false, timeoutMs: 120000 },
    content: [{ type: 'text', text: stdout }],
  });
}
