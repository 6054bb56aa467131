/**
 * `npm run record-sessions`: regenerate the fixture corpus in
 * `test/fixtures/sessions/` by running scripted sessions in the real DSH.
 *
 * For each scenario: the real `dsh` 0.1.0-rc.8, headless under Node 22, in a
 * throwaway `DSH_HOME` where the packed plugin was installed as a profile
 * bundle (`dsh plugin add <tgz>`) and configured from the profile's own patch
 * layer; a scripted mock model (`test/host/lib/mock-model.ts`) plays the agent,
 * streaming every answer as a real provider does (reasoning, arguments in
 * pieces at seeded points, several calls in one answer where a scenario says);
 * a local web site (`test/host/lib/site.ts`) answers every fetch, reached under
 * made-up names through curl's `--connect-to`, so nothing leaves the machine.
 * The session log DSH writes (`session.jsonl.zstd`, its default) is copied
 * into the corpus, its live trajectory is extracted
 * (`test/host/lib/trajectory.ts`) and checked against what the scenario is
 * meant to show; a scenario that does not show it is not written.
 *
 *   --only <name>[,<name>…]   record only these scenarios (the others keep their files)
 *
 * Nothing is written unless every chosen scenario passed. Needs `test/host`
 * (installed from its lockfile when missing, ~40 s) and the `zstd` command
 * (for the plain copy); runs `npm run build` first; 5–15 s per scenario.
 */
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';

import { addPlugin, configYaml, dshEnv, exec, headlessArgs, infraOverlay, profilePatch } from '../../test/host/lib/dsh.js';
import { HOST_DIR, NODE22, REPO_DIR, WORK_DIR } from '../../test/host/lib/env.js';
import { startMockModel, type ScriptedCall, type ScriptedStep, type Streaming } from '../../test/host/lib/mock-model.js';
import { callsOf } from '../../test/host/lib/stream.js';
import { deriveSeed } from '../../test/support/prng.js';
import { checkHost, installHost, pack, run } from '../../test/host/lib/setup.js';
import { findSessionLogs, readSessionLog } from '../../test/host/lib/session-log.js';
import { startSite, type Page, type Site } from '../../test/host/lib/site.js';
import { liveTrajectory, type TrajectoryEntry } from '../../test/host/lib/trajectory.js';
import { CORPUS_DIR, LOG_FILE, PLAIN_LOG_FILE, type Label, type Recorded } from '../../test/host/lib/corpus.js';

const PLUGIN_ID = 'repeat-tool-breaker';
const ROOT = join(WORK_DIR, 'record');
const RUN_TIMEOUT_MS = 180_000;
/** The corpus's streams: arguments in 2–6 pieces, cut at points drawn from this seed (one derived seed per scenario). */
const CORPUS_SEED = 0x5eed;

interface Fixture {
  /** `http://127.0.0.1:<port>` of the local site. */
  readonly site: string;
  /** curl's flag that sends any host name to the local site. */
  readonly connect: string;
}

interface Expectation {
  /** The denied calls and who refused each: `[call, by]`, in order. */
  readonly denied: readonly (readonly [number, 'plugin' | 'approval'])[];
  /** The calls followed by breaker notices, in order. */
  readonly noticesAfter: readonly number[];
  /** The calls DSH skipped after a stop (default none). */
  readonly skipped?: readonly number[];
}

/** What the scripted operator does during the run (`test/host/lib/operator.ts`). */
interface Operator {
  /** Type `text` into the running turn after this many settled calls. */
  readonly afterCall?: number;
  readonly text?: string;
  /** Press Stop `stopAfterMs` after the body of this call (counted from 1) started, then type `thenText` as the next turn. */
  readonly stopDuring?: number;
  readonly stopAfterMs?: number;
  readonly thenText?: string;
}

interface Scenario {
  readonly name: string;
  readonly label: Label;
  readonly description: string;
  /** The plugin config the row is mounted with; `{}` mounts the bundle's row as shipped. */
  readonly config: Record<string, unknown>;
  /** Also keep a decompressed `session.jsonl` beside the `.zstd`. */
  readonly plain?: boolean;
  /** Files to create in the workspace before the run. */
  readonly files?: Readonly<Record<string, string>>;
  /** What a person at the keyboard does during the run. */
  readonly operator?: Operator;
  /** The model's steps: a call, or several calls in one answer. */
  readonly script: (fixture: Fixture) => ScriptedStep[];
  /** What the live trajectory must show, or the scenario is not written. */
  readonly expect: Expectation;
}

/* ── what the local site serves ─────────────────────────────────────────── */

function route(url: URL): Page {
  const path = url.pathname;
  if (path === '/health') return { status: 503, body: 'service unavailable: warming up\n' };
  if (path === '/build/status') return { status: 200, body: 'build 4711: running (step 3 of 5)\n' };
  if (path === '/items') return { status: 200, body: `items page ${url.searchParams.get('page') ?? '1'} of 20\n` };
  if (path.startsWith('/docs/')) return { status: 200, body: `${path}: reference page\n` };
  if (path.startsWith('/api/')) return { status: 200, body: `<html><body>Page not found: ${path}</body></html>\n` };
  return { status: 200, body: `ok ${path}\n` };
}

/* ── the scenarios ──────────────────────────────────────────────────────── */

const bash = (command: string, description: string): ScriptedCall => ({ name: 'bash', arguments: { command, description } });
const readFile = (path: string): ScriptedCall => ({ name: 'read', arguments: { file_path: path } });

/** A tiny project with a bug to fix (`sum` subtracts). */
const SMALL_PROJECT: Readonly<Record<string, string>> = {
  'package.json': '{ "name": "demo", "version": "1.0.0", "type": "module" }\n',
  'src/sum.js': 'export function sum(a, b) {\n  return a - b;\n}\n',
  'test/sum.test.js':
    "import { sum } from '../src/sum.js';\nif (sum(2, 3) !== 5) { console.error('sum is wrong'); process.exit(1); }\nconsole.log('ok');\n",
  'README.md': '# demo\n\nAdds numbers.\n',
  'CHANGELOG.md': '# Changelog\n\n- First release.\n',
};

/** Whatever is wrong with a live trajectory for what the scenario is meant to show (empty: write it). */
function problems(trajectory: readonly TrajectoryEntry[], expected: Expectation, calls: number): string[] {
  const found: string[] = [];
  const compare = (what: string, actual: unknown, wanted: unknown): void => {
    if (JSON.stringify(actual) !== JSON.stringify(wanted))
      found.push(`${what}: expected ${JSON.stringify(wanted)}, got ${JSON.stringify(actual)}`);
  };
  compare('tool calls in the log', trajectory.length, calls);
  compare(
    'denied calls',
    trajectory.filter((e) => e.outcome === 'denied').map((e) => [e.call, e.by]),
    expected.denied,
  );
  compare(
    'calls followed by notices',
    trajectory.filter((e) => e.notices.length > 0).map((e) => e.call),
    expected.noticesAfter,
  );
  compare(
    'calls skipped',
    trajectory.filter((e) => e.outcome === 'skipped').map((e) => e.call),
    expected.skipped ?? [],
  );
  return found;
}

const SCENARIOS: Scenario[] = [
  {
    name: 'healthy-mixed',
    label: 'good',
    description:
      'Ordinary work on a small project: reads, a glob, a few distinct shell commands, two fetches, an edit and a test run. Nothing repeats enough to matter.',
    config: {},
    files: {
      'package.json': SMALL_PROJECT['package.json']!,
      'src/sum.js': SMALL_PROJECT['src/sum.js']!,
      'test/sum.test.js': SMALL_PROJECT['test/sum.test.js']!,
      'README.md': SMALL_PROJECT['README.md']!,
    },
    script: ({ connect }) => [
      bash('ls -la', 'look around'),
      { name: 'read', arguments: { file_path: 'README.md' } },
      { name: 'glob', arguments: { pattern: '**/*.js' } },
      { name: 'read', arguments: { file_path: 'src/sum.js' } },
      { name: 'read', arguments: { file_path: 'test/sum.test.js' } },
      bash('node test/sum.test.js', 'run the test'),
      bash(`curl -sS ${connect} http://docs.example.test/docs/arithmetic`, 'read the docs'),
      { name: 'edit', arguments: { file_path: 'src/sum.js', old_string: 'a - b', new_string: 'a + b' } },
      bash('node test/sum.test.js', 'run the test again'),
      bash('wc -l src/sum.js test/sum.test.js', 'count lines'),
      bash(`curl -sS ${connect} http://docs.example.test/docs/changelog-format`, 'check the changelog format'),
      { name: 'write', arguments: { file_path: 'CHANGELOG.md', content: '# Changelog\n\n- Fix sum.\n' } },
      { name: 'read', arguments: { file_path: 'CHANGELOG.md' } },
      bash('ls -la src test', 'final look'),
    ],
    expect: { denied: [], noticesAfter: [] },
  },
  {
    name: 'identical-loop',
    label: 'stuck',
    description:
      'The agent waits for a build by re-reading the same log with the same command, renaming the decoy `description` each time. Shipped defaults (onLimit: ask, no answerer): advisories at 7 and 11, the 12th call is refused by the approval layer, later ones by the plugin.',
    config: {},
    files: { 'logs/build.log': 'step 1/5 compile: ok\nstep 2/5 lint: ok\nstep 3/5 test: running\n' },
    script: () => Array.from({ length: 14 }, (_, i) => bash('tail -n 20 logs/build.log', `check the build log (attempt ${i + 1})`)),
    expect: {
      denied: [
        [12, 'approval'],
        [13, 'plugin'],
        [14, 'plugin'],
      ],
      noticesAfter: [7, 11],
    },
  },
  {
    name: 'host-spelling-ping-pong',
    label: 'stuck',
    description:
      'The agent fetches one export that keeps answering "Page not found", alternating between the www. and bare spellings of the host and renaming the description. Both spellings meet on net:; recorded with onLimit: deny, so the 12th call and later are REPEAT_TOOL_BLOCKED.',
    config: { onLimit: 'deny' },
    script: ({ connect }) =>
      Array.from({ length: 14 }, (_, i) =>
        bash(
          `curl -sS ${connect} http://${i % 2 === 0 ? 'www.' : ''}data.example.test/api/export.csv`,
          `download the export (${i % 2 === 0 ? 'www' : 'bare host'}, try ${i + 1})`,
        ),
      ),
    expect: {
      denied: [
        [12, 'plugin'],
        [13, 'plugin'],
        [14, 'plugin'],
      ],
      noticesAfter: [7, 11],
    },
  },
  {
    name: 'pagination',
    label: 'good',
    description:
      'The agent reads twelve pages of one listing (`?page=1..12`) on one host. Every page is a different net: resource, so nothing is gated; the pages share host:, whose advisories speak at 7 and 11 (its gate is 16).',
    config: {},
    script: ({ connect }) =>
      Array.from({ length: 12 }, (_, i) =>
        bash(`curl -sS ${connect} "http://api.example.test/items?page=${i + 1}"`, `fetch page ${i + 1}`),
      ),
    expect: { denied: [], noticesAfter: [7, 11] },
  },
  {
    name: 'failure-spin',
    label: 'stuck',
    description:
      'The agent retries a health check that keeps failing (HTTP 503, curl exit 22), varying the description and --max-time. Recorded with onLimit: deny: the failure advisory speaks at the 3rd failure, the 6th and 7th attempts are REPEAT_TOOL_BLOCKED by the failure track, and a different call (reading the server log) still runs.',
    config: { onLimit: 'deny' },
    plain: true,
    files: { 'logs/server.log': 'listening on :8080\nwarming caches (this takes ~10 minutes)\n' },
    script: ({ connect }) => [
      ...Array.from({ length: 7 }, (_, i) =>
        bash(`curl -fsS --max-time ${5 + i} ${connect} http://api.example.test/health`, `check the service is healthy (attempt ${i + 1})`),
      ),
      bash('tail -n 5 logs/server.log', 'read the server log instead'),
    ],
    expect: {
      denied: [
        [6, 'plugin'],
        [7, 'plugin'],
      ],
      noticesAfter: [3],
    },
  },
  {
    name: 'rotating-paths',
    label: 'stuck',
    description:
      'The agent guesses where an export lives, trying a new path on the same host each time; every guess answers "Page not found". No two calls share exact:, cmd: or net:, only host:. Shipped defaults: advisories at 7 and 11, the 16th call is refused by the approval layer (no answerer), the 17th and 18th by the plugin.',
    config: {},
    script: ({ connect }) =>
      [
        'api/export.csv',
        'api/v1/export',
        'api/v2/export',
        'api/v1/export.csv',
        'api/v2/export.csv',
        'api/data/export',
        'api/exports/latest',
        'api/export?format=csv',
        'api/v1/datasets/export',
        'api/download/export.csv',
        'api/v3/export',
        'api/public/export',
        'api/export/all',
        'api/bulk/export',
        'api/v1/bulk',
        'api/dump.csv',
        'api/full-export.csv',
        'api/archive/export.zip',
      ].map((path, i) => bash(`curl -sS ${connect} "http://data.example.test/${path}"`, `look for the export (guess ${i + 1})`)),
    expect: {
      denied: [
        [16, 'approval'],
        [17, 'plugin'],
        [18, 'plugin'],
      ],
      noticesAfter: [7, 11],
    },
  },
  {
    name: 'human-message',
    label: 'good',
    description:
      'The agent polls a local build status (a loopback URL: counted by exact:, cmd: and net:, not host:). After the 9th poll the operator types into the running turn ("still building, keep checking"); the human message resets the breaker, so the 18 polls draw an advisory at 7 and again at 16 (the 7th since the message) and are never gated.',
    config: {},
    operator: { afterCall: 9, text: 'It is still building on my side too. Keep checking the status until it finishes.' },
    script: ({ site }) =>
      Array.from({ length: 18 }, (_, i) =>
        bash(`curl -sS ${site.replace('127.0.0.1', 'localhost')}/build/status`, `check the build status (poll ${i + 1})`),
      ),
    expect: { denied: [], noticesAfter: [7, 16] },
  },
  {
    name: 'parallel-reads',
    label: 'stuck',
    description:
      'The agent re-reads one build log: one `read`, then steps of three identical `read` calls in one answer, which DSH runs as a parallel pool (policy for each call in model order, then the bodies, then post-execute in model order). Shipped defaults: advisories at 7 and 11; the gate falls inside the fifth step, where call 13 passes its policy before the refusal of call 12 settles: call 12 is asked about and refused by the approval layer (no answerer), and call 13 is denied by the plugin without a second ask, since an ask the guard never consumed was not approved (P8); 14–16 are denied by the plugin too.',
    config: {},
    files: { 'logs/build.log': 'step 1/5 compile: ok\nstep 2/5 lint: ok\nstep 3/5 test: running\n' },
    script: () => [readFile('logs/build.log'), ...Array.from({ length: 5 }, () => [1, 2, 3].map(() => readFile('logs/build.log')))],
    expect: {
      denied: [
        [12, 'approval'],
        [13, 'plugin'],
        [14, 'plugin'],
        [15, 'plugin'],
        [16, 'plugin'],
      ],
      noticesAfter: [7, 11],
    },
  },
  {
    name: 'parallel-mixed',
    label: 'good',
    description:
      'Ordinary work in steps of several calls: parallel-safe reads pooled, exclusive shell commands and an edit as barriers between them (a step of read, bash, read runs as three groups). Nothing repeats enough to matter.',
    config: {},
    files: SMALL_PROJECT,
    script: () => [
      [readFile('README.md'), readFile('src/sum.js'), readFile('test/sum.test.js')],
      [bash('node test/sum.test.js', 'run the test'), readFile('package.json')],
      [readFile('src/sum.js'), bash('grep -n "a - b" src/sum.js', 'find the bug'), readFile('test/sum.test.js')],
      { name: 'edit', arguments: { file_path: 'src/sum.js', old_string: 'a - b', new_string: 'a + b' } },
      [bash('node test/sum.test.js', 'run the test again'), readFile('src/sum.js'), readFile('README.md')],
    ],
    expect: { denied: [], noticesAfter: [] },
  },
  {
    name: 'stopped-step',
    label: 'good',
    description:
      'The operator stops a step: the agent reads two files in parallel, then answers with a slow test suite and two more reads. The operator presses Stop while the suite runs (what the web UI\'s stop button does): DSH aborts the command and logs the two reads of that step as skipped, never started and never shown to the plugin. The operator then asks for the quick test; the agent runs it and does the two reads.',
    config: {},
    files: { ...SMALL_PROJECT, 'test/slow.test.sh': 'sleep 30\necho slow suite done\n' },
    operator: {
      stopDuring: 3,
      stopAfterMs: 300,
      thenText: 'That suite takes minutes. Skip it and run the quick test instead.',
    },
    script: () => [
      [readFile('README.md'), readFile('src/sum.js')],
      [bash('sh test/slow.test.sh', 'run the full suite'), readFile('CHANGELOG.md'), readFile('package.json')],
      bash('node test/sum.test.js', 'run the quick test'),
      [readFile('CHANGELOG.md'), readFile('package.json')],
    ],
    expect: { denied: [], noticesAfter: [], skipped: [4, 5] },
  },
];

/* ── recording ──────────────────────────────────────────────────────────── */

interface Recording {
  readonly scenario: Scenario;
  readonly trajectory: TrajectoryEntry[];
  readonly bytes: number;
  readonly ms: number;
}

function writeFiles(dir: string, files: Readonly<Record<string, string>>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

/** Records one scenario; its files go to `staging/<name>/`, to be moved into the corpus once every scenario passed. */
async function record(scenario: Scenario, home: string, pnpmStore: string, staging: string): Promise<Recording> {
  const streaming: Streaming = { seed: deriveSeed(CORPUS_SEED, SCENARIOS.indexOf(scenario)), pieces: [2, 6] };
  const scratch = join(ROOT, 'runs', scenario.name);
  const workspace = join(scratch, 'workspace');
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(workspace, { recursive: true });
  writeFiles(workspace, scenario.files ?? {});

  const site: Site = await startSite(route, { maxSeconds: RUN_TIMEOUT_MS / 1000 });
  const fixture: Fixture = { site: site.url, connect: `--connect-to ::127.0.0.1:${site.port}` };
  const script = scenario.script(fixture);
  const model = await startMockModel({ script, streaming, maxRequests: 400, maxSeconds: RUN_TIMEOUT_MS / 1000 });
  try {
    const overlays = [join(scratch, 'infra.patch.yml')];
    writeFileSync(overlays[0]!, infraOverlay(home, { plainLog: false }));
    if (scenario.operator !== undefined) {
      const operator = join(scratch, 'operator.patch.yml');
      writeFileSync(
        operator,
        `- insert:\n    - id: scripted-operator\n      name: ${JSON.stringify(join(HOST_DIR, 'lib', 'operator.ts'))}\n${configYaml({ ...scenario.operator }, '      ')}`,
      );
      overlays.push(operator);
    }
    const config = Object.keys(scenario.config).length === 0 ? undefined : scenario.config;
    writeFileSync(join(home, 'profiles', 'headless', 'cordis.patch.yml'), profilePatch(PLUGIN_ID, config));

    const before = new Set(findSessionLogs(home));
    const args = headlessArgs(overlays, `Scenario ${scenario.name}: follow the script.`);
    const result = await exec(NODE22, args, { cwd: workspace, env: dshEnv(home, model.url, pnpmStore), timeoutMs: RUN_TIMEOUT_MS });
    writeFileSync(join(scratch, 'run.json'), JSON.stringify({ args, ...result, siteHits: site.hits() }, null, 2));
    if (result.code !== 0)
      throw new Error(`dsh exited ${String(result.code ?? result.signal)} after ${result.ms} ms:\n${result.stderr.slice(-3000)}`);
    const fresh = findSessionLogs(home).filter((p) => !before.has(p));
    if (fresh.length !== 1 || !fresh[0]!.endsWith(LOG_FILE))
      throw new Error(`expected one new ${LOG_FILE}, found ${JSON.stringify(fresh)}`);
    const logPath = fresh[0]!;
    const trajectory = liveTrajectory(readSessionLog(logPath));
    const wrong = problems(trajectory, scenario.expect, script.flatMap(callsOf).length);
    if (wrong.length > 0) {
      throw new Error(
        `${scenario.name} does not show what it is meant to (see ${scratch}):\n  ${wrong.join('\n  ')}\n${describe(trajectory)}`,
      );
    }
    const dir = join(staging, scenario.name);
    mkdirSync(dir, { recursive: true });
    copyFileSync(logPath, join(dir, LOG_FILE));
    if (scenario.plain === true) run('zstd', ['-q', '-d', '-f', logPath, '-o', join(dir, PLAIN_LOG_FILE)]);
    // DSH writes its logs owner-only; fixtures are ordinary repository files.
    for (const file of scenario.plain === true ? [LOG_FILE, PLAIN_LOG_FILE] : [LOG_FILE]) chmodSync(join(dir, file), 0o644);
    return { scenario, trajectory, bytes: statSync(join(dir, LOG_FILE)).size, ms: result.ms };
  } finally {
    await model.close();
    await site.close();
  }
}

function describe(trajectory: readonly TrajectoryEntry[]): string {
  return trajectory
    .map(
      (e) =>
        `  ${String(e.call).padStart(2)}. ${e.tool.padEnd(5)} ${e.outcome === 'denied' ? `denied by ${e.by ?? '?'}` : e.outcome}${e.notices.map((n) => ` [${n}]`).join('')}`,
    )
    .join('\n');
}

function summary(r: Recording): string {
  const t = r.trajectory;
  const denials = t.filter((e) => e.outcome === 'denied').map((e) => `${e.call}${e.by === 'approval' ? 'a' : 'p'}`);
  const notices = t.flatMap((e) => e.notices.map(() => e.call));
  const skipped = t.filter((e) => e.outcome === 'skipped').map((e) => e.call);
  return (
    `${r.scenario.name.padEnd(24)} ${r.scenario.label.padEnd(5)} ${String(t.length).padStart(2)} calls, ` +
    `denied [${denials.join(' ')}], notices at [${notices.join(' ')}], skipped [${skipped.join(' ')}], ` +
    `${r.bytes} B, ${(r.ms / 1000).toFixed(1)} s`
  );
}

/** `recorded.json`, indented, with one line per trajectory entry so a diff shows which call changed. */
function formatRecorded(recorded: Recorded): string {
  const scenarios = Object.entries(recorded).map(([name, r]) => {
    const head = JSON.stringify({ config: r.config, dsh: r.dsh, description: r.description }, null, 2).slice(0, -2).replace(/\n/g, '\n  ');
    const trajectory = r.trajectory.map((e) => `      ${JSON.stringify(e)}`).join(',\n');
    return `  ${JSON.stringify(name)}: ${head},\n    "trajectory": [\n${trajectory}\n    ]\n  }`;
  });
  return `{\n${scenarios.join(',\n')}\n}\n`;
}

async function main(): Promise<void> {
  const onlyAt = process.argv.indexOf('--only');
  const only = onlyAt === -1 ? undefined : new Set((process.argv[onlyAt + 1] ?? '').split(','));
  const chosen = SCENARIOS.filter((s) => only === undefined || only.has(s.name));
  if (only !== undefined && chosen.length !== only.size)
    throw new Error(`unknown scenario in --only; known: ${SCENARIOS.map((s) => s.name).join(', ')}`);

  run('npm', ['run', 'build', '--silent'], { cwd: REPO_DIR });
  installHost();
  const dsh = checkHost();
  const packed = pack('ours');

  rmSync(ROOT, { recursive: true, force: true });
  const home = join(ROOT, 'home');
  const pnpmStore = join(ROOT, 'pnpm-store');
  mkdirSync(join(home, '..', 'user-home'), { recursive: true });
  const add = await addPlugin({ home, cwd: ROOT, spec: packed.tarball, profile: 'headless', pnpmStore, timeoutMs: 180_000 });
  if (add.code !== 0) throw new Error(`dsh plugin add failed:\n${add.stdout}\n${add.stderr}`);

  // Record everything first: a scenario that fails leaves the corpus as it was.
  const staging = join(ROOT, 'corpus');
  const recordings: Recording[] = [];
  for (const scenario of chosen) {
    const r = await record(scenario, home, pnpmStore, staging);
    recordings.push(r);
    console.log(summary(r));
  }

  const recordedPath = join(CORPUS_DIR, 'recorded.json');
  const labelsPath = join(CORPUS_DIR, 'labels.json');
  // With --only, the other scenarios keep their entries; a full run starts afresh.
  const keep = only !== undefined && existsSync(recordedPath);
  const recorded: Recorded = keep ? (JSON.parse(readFileSync(recordedPath, 'utf8')) as Recorded) : {};
  const labels: Record<string, Label> = keep ? (JSON.parse(readFileSync(labelsPath, 'utf8')) as Record<string, Label>) : {};
  mkdirSync(CORPUS_DIR, { recursive: true });
  if (only === undefined) {
    // Scenario directories no longer in the script go (README.md and other files stay).
    for (const entry of readdirSync(CORPUS_DIR, { withFileTypes: true })) {
      if (entry.isDirectory() && !SCENARIOS.some((s) => s.name === entry.name)) rmSync(join(CORPUS_DIR, entry.name), { recursive: true });
    }
  }
  for (const { scenario, trajectory } of recordings) {
    rmSync(join(CORPUS_DIR, scenario.name), { recursive: true, force: true });
    renameSync(join(staging, scenario.name), join(CORPUS_DIR, scenario.name));
    recorded[scenario.name] = { config: scenario.config, dsh, description: scenario.description, trajectory };
    labels[scenario.name] = scenario.label;
  }
  const order = SCENARIOS.map((s) => s.name).filter((n) => n in recorded);
  writeFileSync(recordedPath, formatRecorded(Object.fromEntries(order.map((n) => [n, recorded[n]!]))));
  writeFileSync(labelsPath, `${JSON.stringify(Object.fromEntries(order.map((n) => [n, labels[n]])), null, 2)}\n`);
  console.log(`# wrote ${recordings.length} of ${order.length} scenarios to ${CORPUS_DIR}`);
}

main().catch((error: unknown) => {
  console.error(`record-sessions: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
