/**
 * `npm run bench -- --compare <dir>`: this build (`dist/`) against another
 * build of the port (a copy of dist/ inside the project), under the defaults,
 * `limits.act: 12` and `preset: recommended`, with the reference beside them.
 *
 * Whole rounds of one plugin after another swing by 2–3× on a shared machine
 * (a burst of load lands on one plugin's round), so the two builds are
 * interleaved session by session: each session runs through every contestant,
 * in an order that alternates, before the next session starts. A burst then
 * costs every contestant alike, and the ratio of the two builds holds to a
 * few per cent. The absolute figures differ from the main table's (every
 * contestant runs on caches the others just used), so only ratios are
 * compared: this build to the other, and each to the reference in this run.
 */
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { cloneData } from '../../test/parity/session.js';
import type { PluginLike } from '../../test/robustness/hooks.js';
import { prepare, runSession, usableSessions, withAct, withPreset } from './sessions.js';

const CONFIGS: readonly [string, (config: unknown) => unknown][] = [
  ['defaults', (config) => config],
  ['`limits.act: 12`', withAct],
  ['`preset: recommended`', withPreset],
];

interface Contestant {
  readonly label: string;
  readonly plugin: PluginLike;
  readonly configure: (config: unknown) => unknown;
}

/** Runs the comparison and prints its table; `other` is the directory of the other build. */
export async function compare(self: PluginLike, reference: PluginLike, other: string, rounds: number, sessionCount: number): Promise<void> {
  const that = ((await import(pathToFileURL(resolve(other, 'index.js')).href)) as { default: PluginLike }).default;
  const contestants: Contestant[] = [{ label: 'reference', plugin: reference, configure: (config) => config }];
  for (const [name, configure] of CONFIGS) contestants.push({ label: `this ${name}`, plugin: self, configure }, { label: `other ${name}`, plugin: that, configure });
  const sessions = usableSessions(sessionCount, [self, that, reference]);
  const ms = new Map<string, number>();
  let calls = 0;
  for (let round = 0; round < rounds; round += 1) {
    for (const [at, session] of sessions.entries()) {
      const order = (round + at) % 2 === 0 ? contestants : [...contestants].reverse();
      for (const { label, plugin, configure } of order) {
        const run = await runSession(plugin, configure(cloneData(session.config)), session, prepare(session));
        ms.set(label, (ms.get(label) ?? 0) + run.ms);
        if (label === 'reference') calls += run.calls;
      }
    }
  }
  const us = (label: string): number => ((ms.get(label) ?? 0) * 1000) / calls;
  const referenceUs = us('reference');
  console.log(`## This build against ${other}\n`);
  console.log(`${sessions.length} generated sessions, ${rounds} rounds, every session through every contestant in turn (order alternating). Reference: ${referenceUs.toFixed(1)} µs/call in this run.\n`);
  console.log('| config | this build (µs/call) | other build | **this / other** | this / reference | other / reference |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const [name] of CONFIGS) {
    const mine = us(`this ${name}`);
    const theirs = us(`other ${name}`);
    console.log(`| ${name} | ${mine.toFixed(1)} | ${theirs.toFixed(1)} | **${(mine / theirs).toFixed(3)}** | ${(mine / referenceUs).toFixed(2)} | ${(theirs / referenceUs).toFixed(2)} |`);
  }
  console.log('');
}
