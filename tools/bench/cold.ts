/**
 * `npm run bench -- --cold`: what a fresh process pays. A DSH session loads
 * the plugin once and its first calls run before the JIT has warmed the
 * code; the main table's median of seven rounds is the warm cost. Here each
 * measurement is a child process that imports one plugin, applies it and
 * runs the first sessions of the generator (seed 2026) once: the port and
 * the reference each get the same sessions, in pairs of processes whose
 * order alternates, and the table gives medians over the pairs.
 *
 * Only the ratio is read, as in the main table; the absolute figures carry
 * the machine's load.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { cloneData } from '../../test/parity/session.js';
import { median } from './median.js';
import { loadPlugin, prepare, runSession, usableSessions, withPreset } from './sessions.js';

/** Calls per child: about the first `EARLY` (whole sessions) are reported apart, as a short DSH session; the rest up to `LATE` beside them. */
const EARLY = 100;
const LATE = 1000;

type Contestant = 'port' | 'port, preset' | 'reference';
const CONTESTANTS: readonly Contestant[] = ['port', 'port, preset', 'reference'];

interface ColdRun {
  /** µs per call over the first `EARLY` calls, and over the calls after them up to `LATE`. */
  readonly early: number;
  readonly late: number;
}

const REFERENCE = 'reference-breaker';

/** In the child: one plugin, fresh, through the first sessions until `LATE` calls have run. */
async function child(which: Contestant, build: string): Promise<ColdRun> {
  const plugin = await loadPlugin(which === 'reference' ? REFERENCE : build);
  const configure = which === 'port, preset' ? withPreset : (config: unknown): unknown => config;
  // The same sessions for every contestant: those both plugins accept.
  const reference = which === 'reference' ? plugin : await loadPlugin(REFERENCE);
  const port = which === 'reference' ? await loadPlugin(build) : plugin;
  const counted = { early: { ms: 0, calls: 0 }, late: { ms: 0, calls: 0 } };
  for (const session of usableSessions(80, [port, reference])) {
    if (counted.early.calls + counted.late.calls >= LATE) break;
    // A session is counted whole, on the side of the boundary where it starts.
    const side = counted.early.calls < EARLY ? counted.early : counted.late;
    const run = await runSession(plugin, configure(cloneData(session.config)), session, prepare(session));
    side.ms += run.ms;
    side.calls += run.calls;
  }
  const perCall = (part: { ms: number; calls: number }): number => (part.ms * 1000) / Math.max(1, part.calls);
  return { early: perCall(counted.early), late: perCall(counted.late) };
}

/**
 * Importing a plugin in a plain Node process, ms: the child above runs under
 * tsx, whose loader would be timed with every module the port imports.
 */
function importMs(specifier: string): number {
  const code = `const t = performance.now(); await import(${JSON.stringify(specifier)}); console.log(performance.now() - t);`;
  const out = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8', cwd: process.cwd() });
  if (out.status !== 0) throw new Error(`importing ${specifier} failed: ${out.stderr}`);
  return Number(out.stdout.trim());
}

/** In the parent: `pairs` rounds of one fresh process per contestant, the order alternating; prints the table. */
export function cold(build: string, pairs: number): void {
  const runs = new Map<Contestant, ColdRun[]>(CONTESTANTS.map((c) => [c, []]));
  const imports = { port: [] as number[], reference: [] as number[] };
  const script = fileURLToPath(import.meta.url);
  for (let round = 0; round < pairs; round += 1) {
    const order = round % 2 === 0 ? CONTESTANTS : [...CONTESTANTS].reverse();
    imports.port.push(importMs(build));
    imports.reference.push(importMs(REFERENCE));
    for (const which of order) {
      const out = spawnSync(process.execPath, ['--import', 'tsx', script, '--child', which, build], { encoding: 'utf8' });
      if (out.status !== 0) throw new Error(`the cold run of ${which} failed: ${out.stderr}`);
      runs.get(which)?.push(JSON.parse(out.stdout.trim().split('\n').pop() ?? '{}') as ColdRun);
    }
  }
  const ref = runs.get('reference') ?? [];
  const refEarly = median(ref.map((r) => r.early));
  const refLate = median(ref.map((r) => r.late));
  console.log('## A fresh process\n');
  console.log(`${pairs} fresh processes per plugin, the order alternating; each imports one plugin and runs the first generated sessions (seed 2026) once; import: the plugin imported by a plain Node process. Medians.\n`);
  console.log(`| plugin | import (ms) | first ${EARLY} calls (µs/call) | / 0.5.2 | calls ${EARLY + 1}–${LATE} (µs/call) | / 0.5.2 |`);
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const which of CONTESTANTS) {
    const mine = runs.get(which) ?? [];
    const early = median(mine.map((r) => r.early));
    const late = median(mine.map((r) => r.late));
    const label = which === 'reference' ? 'reference 0.5.2' : which === 'port' ? 'port' : 'port, `preset: recommended`';
    const imported = median(which === 'reference' ? imports.reference : imports.port);
    console.log(`| ${label} | ${imported.toFixed(1)} | ${early.toFixed(1)} | ${(early / refEarly).toFixed(2)} | ${late.toFixed(1)} | ${(late / refLate).toFixed(2)} |`);
  }
  console.log('');
}

const at = process.argv.indexOf('--child');
if (at >= 0 && import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const which = process.argv[at + 1] as Contestant;
  const build = process.argv[at + 2] ?? pathToFileURL(resolve('dist/index.js')).href;
  console.log(JSON.stringify(await child(which, build)));
}
