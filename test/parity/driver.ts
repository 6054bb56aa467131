/**
 * Runs one session through one plugin on the fake host, and compares two runs
 * call by call. Each run gets its own clone of the config and its own agent
 * objects; arguments, results and inbox messages are deep-frozen (the real host
 * freezes messages too), so neither plugin can influence the other. A pool of
 * calls runs in DSH's pool order; each of its calls still has a view of its own.
 */
import { FakeHost, type CallInput, type HostResult, type PluginModule } from '../support/fake-host.js';
import { observe, type CallView, type ObserveOptions } from './observe.js';
import { cloneData, deepFreeze, runEnd, type BodySpec, type Session, type Step } from './session.js';

type CallStep = Extract<Step, { kind: 'call' }>;

/** What one step showed: a call's view, nothing for inbox steps, or a hook that threw. */
export type StepView = CallView | null | { threw: string };

export interface Run {
  /** Set when `apply` threw (a bad config). */
  configError: string | null;
  views: StepView[];
  /** Hooks and guards still registered after the teardown (should be 0). */
  leftover?: number;
}

/** How a config error is compared: thrown at all, and with the plugin's message prefix. */
export function configErrorKey(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.startsWith('repeat-tool-breaker: ') ? 'throws repeat-tool-breaker: …' : `throws (no prefix): ${message}`;
}

export function bodyOf(spec: BodySpec): (args: unknown) => HostResult {
  const data = deepFreeze(spec);
  if (data.kind === 'return') return () => data.result;
  return () => {
    const error = new Error(data.message) as Error & { info?: unknown };
    if (data.info !== undefined) error.info = data.info;
    throw error;
  };
}

function inputOf(agents: object[], step: CallStep): CallInput {
  return {
    agent: step.agent === null ? undefined : step.fresh === true ? { id: `agent-${step.agent}` } : agents[step.agent],
    name: step.name,
    arguments: deepFreeze(step.arguments),
    answer: step.answer,
    body: bodyOf(step.body),
  };
}

function thrown(error: unknown): StepView {
  return { threw: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
}

/** One step, or one pool of calls: the views of `steps` (one each). */
async function runSteps(host: FakeHost, agents: object[], steps: readonly Step[], options: ObserveOptions): Promise<StepView[]> {
  const first = steps[0] as Step;
  try {
    if (first.kind === 'call') {
      const inputs = (steps as CallStep[]).map((step) => inputOf(agents, step));
      const outcomes = inputs.length === 1 ? [await host.call(inputs[0] as CallInput)] : await host.pool(inputs);
      return outcomes.map((outcome) => observe(outcome, options));
    }
    const agent = agents[first.agent] as object;
    if (first.kind === 'human') await host.human(agent);
    else await host.step(agent, deepFreeze(first.messages));
    return [null];
  } catch (error) {
    return steps.map(() => thrown(error));
  }
}

/** Play a session's steps on `host`, pools in pool order; the views, one per step. */
export async function play(host: FakeHost, agents: object[], steps: readonly Step[], options: ObserveOptions = {}): Promise<StepView[]> {
  const views: StepView[] = [];
  for (let at = 0; at < steps.length; ) {
    const end = runEnd(steps, at);
    views.push(...(await runSteps(host, agents, steps.slice(at, end), options)));
    at = end;
  }
  return views;
}

export async function runSession(plugin: PluginModule, session: Session, options: ObserveOptions = {}): Promise<Run> {
  let host: FakeHost;
  try {
    host = new FakeHost(plugin, cloneData(session.config));
  } catch (error) {
    return { configError: configErrorKey(error), views: [] };
  }
  const agents = Array.from({ length: session.agents }, (_, i) => ({ id: `agent-${i}` }));
  const views = await play(host, agents, session.steps, options);
  host.dispose();
  return { configError: null, views, leftover: host.registrations };
}

export interface Mismatch {
  /** Index of the first step whose views differ; -1 for the config. */
  step: number;
  /** The fields that differ at that step. */
  fields: string[];
  left: unknown;
  right: unknown;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The first difference between two runs of one session, or null. */
export function compareRuns(left: Run, right: Run): Mismatch | null {
  if (left.configError !== right.configError) {
    return { step: -1, fields: ['config'], left: left.configError ?? 'accepted', right: right.configError ?? 'accepted' };
  }
  if (left.leftover !== right.leftover) {
    return { step: left.views.length, fields: ['teardown'], left: `${left.leftover} left registered`, right: `${right.leftover} left registered` };
  }
  const n = Math.max(left.views.length, right.views.length);
  for (let i = 0; i < n; i += 1) {
    const a = left.views[i] ?? null;
    const b = right.views[i] ?? null;
    if (same(a, b)) continue;
    const fields: string[] = [];
    if (a !== null && b !== null && !('threw' in a) && !('threw' in b)) {
      for (const key of Object.keys(a) as (keyof CallView)[]) if (!same(a[key], b[key])) fields.push(key);
    } else {
      fields.push('threw');
    }
    return { step: i, fields, left: a, right: b };
  }
  return null;
}

/** Run a session through both plugins and compare. */
export async function compareSession(left: PluginModule, right: PluginModule, session: Session, options: ObserveOptions = {}): Promise<Mismatch | null> {
  const [a, b] = [await runSession(left, session, options), await runSession(right, session, options)];
  return compareRuns(a, b);
}
