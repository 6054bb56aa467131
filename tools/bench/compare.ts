/**
 * `npm run bench -- --compare <dir>`: this build (`dist/`) against another
 * build of the port (a copy of dist/ inside the project), under the defaults,
 * `limits.act: 12` and `preset: recommended`.
 *
 * Whole rounds of one plugin after another swing by 2–3× on a shared machine
 * (a burst of load lands on one plugin's round), so here the two builds step
 * through each session in lockstep, one config at a time: step k of the
 * session goes through both builds' hooks, in an order that alternates, before
 * step k + 1. A step that took either over `CLIP_MS` was preempted or met a
 * major collection, and is left out for both. Only the ratio is read: each
 * build runs on caches the other just used, so the absolute figures are not
 * the main table's. With more than two lanes in lockstep (the reference and
 * all three configs at once), two copies of one build read up to 9 % apart.
 */
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { cloneData, type Session } from '../../test/parity/session.js';
import { captureHooks, type Hooks, type PluginLike } from '../../test/robustness/hooks.js';
import { loadPlugin, prepare, stepThrough, usableSessions, withAct, withPreset, type Prepared } from './sessions.js';

const CONFIGS: readonly [string, (config: unknown) => unknown][] = [
  ['defaults', (config) => config],
  ['`limits.act: 12`', withAct],
  ['`preset: recommended`', withPreset],
];

/** Longest a step may take any contestant and still be counted (the sessions' steps take microseconds). */
const CLIP_MS = 2;

interface Contestant {
  readonly plugin: PluginLike;
  readonly configure: (config: unknown) => unknown;
}

/** One contestant's run of one session: its hooks, agents and cloned steps. */
interface Lane {
  readonly hooks: Hooks;
  readonly agents: object[];
  readonly steps: Prepared[];
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
    for (const i of order) {
      const lane = lanes[i] as Lane;
      took[i] = await stepThrough(lane.hooks, lane.steps[at] as Prepared, lane.agents);
    }
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
  const that = await loadPlugin(pathToFileURL(resolve(other, 'index.js')).href);
  const sessions = usableSessions(sessionCount, [self, that, reference]);
  console.log(`## This build against ${other}\n`);
  console.log(`${sessions.length} generated sessions, ${rounds} rounds per config; the two builds step through each session in lockstep (order alternating). A step that took either over ${CLIP_MS} ms is left out for both.\n`);
  console.log('| config | **this / other** | per round | steps left out |');
  console.log('|---|---:|---|---:|');
  for (const [name, configure] of CONFIGS) {
    const pair: Contestant[] = [
      { plugin: self, configure },
      { plugin: that, configure },
    ];
    const perRound: number[] = [];
    let mine = 0;
    let theirs = 0;
    let counted = 0;
    let clipped = 0;
    for (let round = 0; round < rounds; round += 1) {
      const ms = [0, 0];
      for (const [at, session] of sessions.entries()) {
        const run = await lockstep(pair, session, round + at, ms);
        counted += run.counted;
        clipped += run.clipped;
      }
      perRound.push((ms[0] ?? 0) / (ms[1] ?? 1));
      mine += ms[0] ?? 0;
      theirs += ms[1] ?? 0;
    }
    console.log(`| ${name} | **${(mine / theirs).toFixed(3)}** | ${perRound.map((r) => r.toFixed(3)).join(', ')} | ${clipped} of ${counted + clipped} |`);
  }
  console.log('\nThe ratios to 0.5.2 are the main table\'s (`npm run bench -- --sessions`).\n');
}
