/**
 * npm run bench: the per-call cost of the four hooks, port against reference
 * 0.5.2, in one process, interleaved, median of several rounds; then scaling
 * curves (window size, argument size, result text size, number of agents).
 *
 * The hooks are called directly (test/robustness/hooks.ts captures them from
 * `apply`), not through the fake host, so the figures are the plugins' own
 * cost. Sessions come from the parity suite's seeded generator. Inputs are
 * built and cloned before the clock starts; only hook calls are timed.
 *
 *   npm run bench              # the whole thing (several minutes)
 *   npm run bench -- --quick   # fewer rounds and smaller curves
 *   npm run bench -- --sessions  # the realistic sessions only
 *   npm run bench -- --sessions --port .tmp/before  # another build of the port (a copy of dist/, inside the project)
 *   npm run bench -- --compare .tmp/before  # this build against another, interleaved session by session (compare.ts)
 *   npm run bench -- --cold    # the first calls of a fresh process, port against reference (cold.ts)
 *
 * The realistic sessions also run the port with `preset: recommended` under each session's config.
 *
 * One run's ratio moves by a few hundredths with the machine; to compare two
 * builds, use `--compare` (docs/performance.md, "Comparing builds").
 */
import { cpus, totalmem, platform, release } from 'node:os';
import { performance } from 'node:perf_hooks';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cloneData, type Session } from '../../test/parity/session.js';
import { captureHooks, type Hooks, type PluginLike } from '../../test/robustness/hooks.js';
import { cold } from './cold.js';
import { compare } from './compare.js';
import { median } from './median.js';
import { loadPlugin, prepare, runSession, usableSessions, withAct, withPreset } from './sessions.js';

const quick = process.argv.includes('--quick');
const gc = (globalThis as { gc?: () => void }).gc ?? ((): void => undefined);

/** The build under test: `dist/`, or the copy of one named by `--port <dir>`. */
function portBuild(): string {
  const at = process.argv.indexOf('--port');
  const dir = at < 0 ? undefined : process.argv[at + 1];
  if (at >= 0 && (dir === undefined || dir.startsWith('--'))) throw new Error('--port needs a directory: a copy of dist/, e.g. --port /tmp/before');
  return dir === undefined ? new URL('../../dist/index.js', import.meta.url).href : pathToFileURL(resolve(dir, 'index.js')).href;
}

const PLUGINS: [string, PluginLike][] = [
  ['port', await loadPlugin(portBuild())],
  ['reference', await loadPlugin('reference-breaker')],
];

/**
 * The port beside a settings service whose saved value differs from the row
 * config (one host alias no call uses): every call then takes the per-agent
 * policy path of live settings (src/lib/policy.ts) instead of the load-time one.
 */
function withSettingsChanged(port: PluginLike): PluginLike {
  const apply = port.apply as (ctx: unknown, config?: unknown) => unknown;
  const settings = {
    register: (_ns: string, schema: (value: unknown) => Record<string, unknown>, options: { base?: unknown }) => {
      const value = schema(options.base);
      const saved = { ...value, hostAliases: { ...(value.hostAliases as object), 'saved.invalid': 'saved.invalid' } };
      return { get: () => saved, watch: () => () => undefined };
    },
  };
  const inject = (_deps: string[], callback: (sctx: unknown) => void): { dispose(): void } => {
    callback({ settings });
    return { dispose: () => undefined };
  };
  return { apply: ((ctx: object, config?: unknown) => apply({ ...ctx, inject }, config)) as PluginLike['apply'] };
}

/** Realistic sessions only: the port as above, against the same reference. */
const LIVE: [string, PluginLike] = ['port, settings changed', withSettingsChanged((PLUGINS[0] as [string, PluginLike])[1])];

const fmt = (us: number): string => (us >= 100 ? us.toFixed(0) : us >= 10 ? us.toFixed(1) : us.toFixed(2));

// ---------------------------------------------------------------- sessions

async function realistic(): Promise<void> {
  const sessions = usableSessions(quick ? 100 : 300, PLUGINS.map(([, plugin]) => plugin));
  const rounds = quick ? 3 : 7;
  const perCall: Record<string, number[]> = { port: [], reference: [], [LIVE[0]]: [], 'port, act on': [], 'port, preset': [] };
  // Beside the two plugins: the port after a live settings change, with the opt-in act: measure on, and with `preset: recommended`.
  const identity = (config: unknown): unknown => config;
  const contestants: [string, PluginLike, (config: unknown) => unknown][] = [
    ...PLUGINS.map(([label, plugin]): [string, PluginLike, (config: unknown) => unknown] => [label, plugin, identity]),
    [LIVE[0], LIVE[1], identity],
    ['port, act on', PLUGINS[0]?.[1] as PluginLike, withAct],
    ['port, preset', PLUGINS[0]?.[1] as PluginLike, withPreset],
  ];
  let callsPerRound = 0;
  for (let round = 0; round < rounds; round += 1) {
    // Interleaved: the order alternates each round so neither plugin always runs on a warmer heap.
    const order = round % 2 === 0 ? contestants : [...contestants].reverse();
    for (const [label, plugin, configure] of order) {
      const prepared = sessions.map((session) => ({ config: configure(cloneData(session.config)), steps: prepare(session) }));
      gc();
      let ms = 0;
      let calls = 0;
      for (const [at, item] of prepared.entries()) {
        const run = await runSession(plugin, item.config, sessions[at] as Session, item.steps);
        ms += run.ms;
        calls += run.calls;
      }
      callsPerRound = calls;
      perCall[label]?.push((ms * 1000) / calls);
    }
  }
  const port = median(perCall.port ?? []);
  const reference = median(perCall.reference ?? []);
  console.log(`## Realistic sessions\n`);
  console.log(`${sessions.length} generated sessions (parity generator, seed 2026), ${callsPerRound} calls per round, ${rounds} rounds, median.\n`);
  console.log('| plugin | µs/call (all four hooks) | rounds (µs/call) |');
  console.log('|---|---:|---|');
  console.log(`| port | ${fmt(port)} | ${(perCall.port ?? []).map(fmt).join(', ')} |`);
  console.log(`| reference 0.5.2 | ${fmt(reference)} | ${(perCall.reference ?? []).map(fmt).join(', ')} |`);
  const live = median(perCall[LIVE[0]] ?? []);
  console.log(`| ${LIVE[0]} | ${fmt(live)} | ${(perCall[LIVE[0]] ?? []).map(fmt).join(', ')} |`);
  const withActOn = median(perCall['port, act on'] ?? []);
  console.log(`| port, \`limits.act: 12\` | ${fmt(withActOn)} | ${(perCall['port, act on'] ?? []).map(fmt).join(', ')} |`);
  const withPresetOn = median(perCall['port, preset'] ?? []);
  console.log(`| port, \`preset: recommended\` | ${fmt(withPresetOn)} | ${(perCall['port, preset'] ?? []).map(fmt).join(', ')} |`);
  console.log(
    `\n**port / reference = ${(port / reference).toFixed(2)}**; with settings changed: ${(live / reference).toFixed(2)}; ` +
      `with the opt-in act: measure on: ${(withActOn / reference).toFixed(2)}; **with the preset: ${(withPresetOn / reference).toFixed(2)}**\n`,
  );
}

// ---------------------------------------------------------------- curves

const OK = { isError: false, value: { exitCode: 0 }, content: [{ type: 'text', text: 'ok' }] };

/** Median µs of one full call (pre, guard, post) on a fresh agent; `null` when a hook threw. */
async function oneCall(plugin: PluginLike, name: string, args: unknown, result: unknown, repeats: number): Promise<number | null> {
  const hooks = captureHooks(plugin);
  const times: number[] = [];
  try {
    for (let i = 0; i < repeats; i += 1) {
      const exec = { name, arguments: args, agent: {} };
      const t = performance.now();
      await hooks.pre(exec);
      hooks.guard(exec);
      await hooks.post(exec, result);
      times.push((performance.now() - t) * 1000);
    }
  } catch {
    return null;
  } finally {
    hooks.dispose();
  }
  return median(times);
}

/** A curve: one row per size, one column per plugin; a plugin slower than `budgetMs` at a size skips the larger ones. */
async function curve(title: string, sizes: number[], label: (n: number) => string, run: (plugin: PluginLike, n: number) => Promise<number | null>, budgetMs = 3000): Promise<void> {
  console.log(`### ${title}\n`);
  console.log('| size | port | reference | reference / port |');
  console.log('|---|---:|---:|---:|');
  const skip = new Set<string>();
  // Warm-up at the smallest size, so the first row does not time the JIT.
  for (const [, plugin] of PLUGINS) for (let i = 0; i < 3; i += 1) await run(plugin, sizes[0] as number);
  for (const n of sizes) {
    const cells: (number | null | 'skipped')[] = [];
    for (const [name, plugin] of PLUGINS) {
      if (skip.has(name)) {
        cells.push('skipped');
        continue;
      }
      gc();
      const us = await run(plugin, n);
      cells.push(us);
      if (us !== null && us / 1000 > budgetMs) skip.add(name);
    }
    const show = (cell: number | null | 'skipped'): string => (cell === null ? 'throws' : cell === 'skipped' ? 'not run (too slow)' : cell >= 1e6 ? `${(cell / 1e6).toFixed(2)} s` : cell >= 1e3 ? `${(cell / 1e3).toFixed(1)} ms` : `${fmt(cell)} µs`);
    const [p, r] = cells;
    const ratio = typeof p === 'number' && typeof r === 'number' ? (r / p).toFixed(1) : '';
    console.log(`| ${label(n)} | ${show(p ?? null)} | ${show(r ?? null)} | ${ratio} |`);
  }
  console.log('');
}

const sizeLabel = (n: number): string => (n >= 1 << 20 ? `${n / (1 << 20)} MB` : `${n / 1024} KB`);

/** µs per call over a long session: one agent cycling through `distinct` commands. */
async function windowCost(plugin: PluginLike, window: number): Promise<number> {
  const limits = { exact: null, cmd: null, net: null, sink: null, host: null };
  const hooks = captureHooks(plugin, { window, limits, warnAt: null, summarizeAt: null, failWarnAt: null, failLimit: null });
  const agent = {};
  const commands = Array.from({ length: 97 }, (_, i) => ({ command: `curl -sL https://api${i % 7}.example.com/v1/items?page=${i} -o /w/out-${i % 13}.json` }));
  return perCall(hooks, quick ? 1500 : 4000, (i) => ({ name: 'bash', arguments: commands[i % commands.length], agent }));
}

/** µs per call with `count` agents taking turns, each in a small loop. */
async function agentsCost(plugin: PluginLike, count: number): Promise<number> {
  const hooks = captureHooks(plugin);
  const agents = Array.from({ length: count }, () => ({}));
  const calls = Math.max(quick ? 1500 : 4000, count * 4);
  return perCall(hooks, calls, (i) => ({ name: 'bash', arguments: { command: `ls -la /w/dir-${i % 5}` }, agent: agents[i % count] }));
}

/** µs per call of `calls` calls through the three call hooks; disposes the hooks afterwards. */
async function perCall(hooks: Hooks, calls: number, execAt: (i: number) => object): Promise<number> {
  const t = performance.now();
  for (let i = 0; i < calls; i += 1) {
    const exec = execAt(i);
    await hooks.pre(exec);
    hooks.guard(exec);
    await hooks.post(exec, OK);
  }
  const us = ((performance.now() - t) * 1000) / calls;
  hooks.dispose();
  return us;
}

const words = (n: number): string => 'lorem ipsum dolor sit amet '.repeat(Math.ceil(n / 27)).slice(0, n);

async function curves(): Promise<void> {
  console.log('## Scaling curves\n');
  console.log('Each cell is the median cost of one call through pre-execute, the guard and post-execute.\n');
  await curve('Window size (µs/call over a long one-agent session, nothing capped)', [8, 16, 32, 64, 128, 256], (n) => `window ${n}`, async (plugin, n) => {
    const runs: number[] = [];
    for (let i = 0; i < 3; i += 1) runs.push(await windowCost(plugin, n));
    return median(runs);
  });
  const argSizes = quick ? [1024, 16384, 262144, 1 << 20] : [1024, 8192, 65536, 262144, 1 << 20, 4 << 20, 10 << 20];
  await curve('Argument size: a bash command of words (heredoc-like)', argSizes, sizeLabel, (plugin, n) =>
    oneCall(plugin, 'bash', { command: `cat > /w/out.txt <<'EOF'\n${words(n)}\nEOF` }, OK, n >= 4 << 20 ? 1 : 3));
  await curve('Argument size: a write of that much content', argSizes, sizeLabel, (plugin, n) => oneCall(plugin, 'write', { path: '/w/out.txt', content: words(n) }, OK, n >= 4 << 20 ? 1 : 3));
  const resultSizes = quick ? [1024, 16384, 131072] : [1024, 4096, 16384, 65536, 262144, 1 << 20, 4 << 20];
  await curve('Result text size: shell output of words', resultSizes, sizeLabel, (plugin, n) =>
    oneCall(plugin, 'bash', { command: 'python3 job.py' }, { isError: false, value: {}, content: [{ type: 'text', text: words(n) }] }, 3));
  await curve('Result text size: shell output of blank lines', resultSizes, (n) => `${n} lines`, (plugin, n) =>
    oneCall(plugin, 'bash', { command: 'python3 job.py' }, { isError: false, value: {}, content: [{ type: 'text', text: `${'\n'.repeat(n)}x` }] }, n >= 65536 ? 1 : 3), 2000);
  await curve('Number of agents (µs/call, agents taking turns)', quick ? [1, 10, 100] : [1, 10, 100, 1000, 10000], (n) => `${n} agents`, async (plugin, n) => agentsCost(plugin, n));
}

// ---------------------------------------------------------------- main

const cpu = cpus()[0]?.model ?? 'unknown cpu';
console.log(`# Benchmark\n`);
console.log(`Machine: ${cpu}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GB, ${platform()} ${release()}, Node ${process.version}. Command: \`npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}\`.\n`);
const against = process.argv.indexOf('--compare');
if (against >= 0) {
  const other = process.argv[against + 1];
  if (other === undefined || other.startsWith('--')) throw new Error('--compare needs a directory: a copy of dist/ inside the project, e.g. --compare .tmp/before');
  await compare((PLUGINS[0] as [string, PluginLike])[1], (PLUGINS[1] as [string, PluginLike])[1], other, quick ? 2 : 6, quick ? 100 : 300);
} else if (process.argv.includes('--cold')) {
  cold(portBuild(), quick ? 4 : 12);
} else {
  await realistic();
  if (!process.argv.includes('--sessions')) await curves();
}
