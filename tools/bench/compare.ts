/**
 * `npm run bench -- --compare <dir>`: this build (`dist/`) against another
 * build of the port (a copy of dist/ inside the project), under the defaults,
 * `limits.act: 12` and `preset: recommended`, with the reference beside them.
 *
 * Whole rounds of one plugin after another swing by 2–3× on a shared machine
 * (a burst of load lands on one plugin's round), so here every contestant
 * steps through each session in lockstep: step k of the session goes through
 * each contestant's hooks, in an order that alternates, before step k + 1. A
 * step that took any contestant over `CLIP_MS` was preempted or met a major
 * collection, and is left out for all of them alike. The absolute figures are
 * not the main table's (each contestant runs on caches the others just used),
 * so only ratios are read: this build to the other, each to the reference.
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { cloneData, type Session } from '../../test/parity/session.js';
import { captureHooks, type Hooks, type PluginLike } from '../../test/robustness/hooks.js';
import { prepare, usableSessions, withAct, withPreset, type Prepared } from './sessions.js';

const CONFIGS: readonly [string, (config: unknown) => unknown][] = [
  ['defaults', (config) => config],
  ['`limits.act: 12`', withAct],
  ['`preset: recommended`', withPreset],
];

/** Longest a step may take any contestant and still be counted (the sessions' steps take microseconds). */
const CLIP_MS = 2;

interface Contestant {
  readonly label: string;
  readonly plugin: PluginLike;
  readonly configure: (config: unknown) => unknown;
}

/** One contestant's run of one session: its hooks, agents and cloned steps. */
interface Lane {
  readonly hooks: Hooks;
  readonly agents: object[];
  readonly steps: Prepared[];
}

/** One step through one lane's hooks, in the host's order; the time inside them (ms). */
async function stepThrough(lane: Lane, at: number): Promise<number> {
  const step = lane.steps[at] as Prepared;
  if (step.kind === 'step') {
    const payload = { agent: lane.agents[step.agent], messages: step.messages };
    const t = performance.now();
    lane.hooks.step(payload);
    return performance.now() - t;
  }
  const exec: Record<string, unknown> = { name: step.name, arguments: step.args };
  if (step.agent !== null) exec.agent = lane.agents[step.agent];
  let t = performance.now();
  const gate = (await lane.hooks.pre(exec)) as { kind: string };
  let ms = performance.now() - t;
  let denial: unknown = 'the operator declined';
  if (gate.kind !== 'ask' || step.answer === 'approve') {
    t = performance.now();
    denial = lane.hooks.guard(exec);
    ms += performance.now() - t;
  }
  const result = denial === undefined ? step.result : { isError: true, content: [{ type: 'text', text: `Error: ${String(denial)}` }], error: { message: String(denial) } };
  t = performance.now();
  await lane.hooks.post(exec, result);
  return ms + performance.now() - t;
}

/** Adds each contestant's time for one session, run in lockstep; returns the steps counted and left out. */
async function lockstep(contestants: readonly Contestant[], session: Session, flip: number, ms: number[]): Promise<{ counted: number; clipped: number }> {
  const lanes = contestants.map(({ plugin, configure }): Lane => ({
    hooks: captureHooks(plugin, configure(cloneData(session.config))),
    agents: Array.from({ length: session.agents }, (_, i) => ({ id: i })),
    steps: prepare(session),
  }));
  let counted = 0;
  let clipped = 0;
  for (let at = 0; at < session.steps.length; at += 1) {
    const order = (at + flip) % 2 === 0 ? lanes.map((_, i) => i) : lanes.map((_, i) => lanes.length - 1 - i);
    const took = new Array<number>(lanes.length).fill(0);
    for (const i of order) took[i] = await stepThrough(lanes[i] as Lane, at);
    if (took.some((t) => t > CLIP_MS)) {
      clipped += 1;
      continue;
    }
    counted += 1;
    took.forEach((t, i) => (ms[i] = (ms[i] ?? 0) + t));
  }
  for (const lane of lanes) lane.hooks.dispose();
  return { counted, clipped };
}

/** Runs the comparison and prints its table; `other` is the directory of the other build. */
export async function compare(self: PluginLike, reference: PluginLike, other: string, rounds: number, sessionCount: number): Promise<void> {
  const that = ((await import(pathToFileURL(resolve(other, 'index.js')).href)) as { default: PluginLike }).default;
  const contestants: Contestant[] = [{ label: 'reference', plugin: reference, configure: (config) => config }];
  for (const [name, configure] of CONFIGS) contestants.push({ label: `this ${name}`, plugin: self, configure }, { label: `other ${name}`, plugin: that, configure });
  const sessions = usableSessions(sessionCount, [self, that, reference]);
  const ms: number[] = contestants.map(() => 0);
  let counted = 0;
  let clipped = 0;
  for (let round = 0; round < rounds; round += 1) {
    for (const [at, session] of sessions.entries()) {
      const run = await lockstep(contestants, session, round + at, ms);
      counted += run.counted;
      clipped += run.clipped;
    }
  }
  const total = (label: string): number => ms[contestants.findIndex((c) => c.label === label)] ?? 0;
  const reference0 = total('reference');
  console.log(`## This build against ${other}\n`);
  console.log(`${sessions.length} generated sessions, ${rounds} rounds, every step through every contestant in turn (order alternating); ${clipped} of ${counted + clipped} steps left out (one took a contestant over ${CLIP_MS} ms).\n`);
  console.log('| config | **this / other** | this / reference | other / reference |');
  console.log('|---|---:|---:|---:|');
  for (const [name] of CONFIGS) {
    const mine = total(`this ${name}`);
    const theirs = total(`other ${name}`);
    console.log(`| ${name} | **${(mine / theirs).toFixed(3)}** | ${(mine / reference0).toFixed(2)} | ${(theirs / reference0).toFixed(2)} |`);
  }
  console.log('');
}
