/**
 * Full-boot suite: the real `dsh` 0.1.0-rc.8 CLI, headless, under Node 22, in
 * a throwaway `DSH_HOME`, talking to the scripted mock model in
 * `../lib/mock-model.ts`. The plugin is mounted two ways:
 *
 *   bundle   installed from the packed tarball into the `headless` profile with
 *            `dsh plugin --profile headless add <tgz>` (pnpm), so DSH resolves
 *            it by package name from the profile directory and applies its
 *            `dsh.bundle.patch`; scenario config goes in the profile's own
 *            `cordis.patch.yml`, as a user would write it.
 *   overlay  no install: a `--patch` overlay inserts the row with `name:` the
 *            absolute path of the built entry from the unpacked tarball.
 *
 * Both modes add one infrastructure overlay: the `hmr` row re-enabled (rc.8's
 * headless profile otherwise races its own HMR mount) and the session log
 * written as plain JSONL (`compression: none`).
 *
 * Assertions read the session log: the tool calls, the result each produced
 * (ran, or an `isError` denial and its text), plugin notices and approval
 * records — the trajectory the model lived through. The mock model streams
 * like a real provider (reasoning, arguments in pieces, several calls in one
 * answer), and the last scenarios replay their fresh logs with `npm run
 * replay`'s engine and require exactly the live verdicts and notices.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { before, describe, test, type TestContext } from 'node:test';

import { addPlugin, configYaml, dshEnv, exec, headlessArgs, infraOverlay, profilePatch } from '../lib/dsh.js';
import { importPlugin, knownReferenceGap, NODE22, pluginUnderTest, shippedCaps, WORK_DIR, type Caps } from '../lib/env.js';
import { CONTEXT_ECHO, contextEchoModule, NOTES } from '../lib/context-echo.js';
import { startMockModel, type MockModel, type ScriptedCall, type ScriptedStep, type Streaming } from '../lib/mock-model.js';
import { pooledReads, POOLED_FILE } from '../lib/pooled-reads.js';
import { findSessionLogs, readLogText, readSessionLog, type SessionLog, type ToolStep } from '../lib/session-log.js';
import { liveTrajectory } from '../lib/trajectory.js';
import { liveVerdicts, replaySession } from '../../../tools/lib/replay.js';

const plugin = pluginUnderTest();
const ROOT = join(WORK_DIR, 'boot', plugin.label);
const BOOT_TIMEOUT_MS = 90_000;
const PLUGIN_ID = 'repeat-tool-breaker';
const BLOCKED = /^Error: REPEAT_TOOL_BLOCKED/;
/** The refusal said on a denial: 0.5.2's paragraph, or ours (P13, P17, P18: how the ask ended, never an operator's no where none could answer). */
const REFUSAL = /not granted|no operator is present to approve|did not approve|not approved/i;
const UNAVAILABLE = /^Error: tool "bash" requires approval, but no approval channel is available$/;

let caps: Caps;

type Mode = 'bundle' | 'overlay' | 'control';

interface Boot {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  log: SessionLog | undefined;
  model: MockModel;
}

function homeOf(mode: Mode): string {
  return join(ROOT, mode, 'home');
}

function baseEnv(home: string, modelUrl: string): NodeJS.ProcessEnv {
  // pnpm (bundle install): keep its store and state under the scratch dir.
  return dshEnv(home, modelUrl, join(ROOT, 'pnpm-store'));
}

/** Free a loopback port nobody listens on, for the failing-target scenario. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let scenarioSeq = 0;

async function boot(
  mode: Mode,
  scenario: string,
  options: {
    config?: Record<string, unknown>;
    script: ScriptedStep[] | ((url: string) => ScriptedStep[]);
    /** How the model streams (default: the mock's own seed). */
    streaming?: Streaming;
    /** Files to create in the workspace before the run. */
    files?: Readonly<Record<string, string>>;
    /** Extra cordis patch rows (YAML), mounted as one more `--patch` overlay: other plugins a scenario needs. */
    rows?: (scratch: string) => string;
  },
): Promise<Boot> {
  scenarioSeq += 1;
  const home = homeOf(mode);
  const scratch = join(ROOT, mode, `${String(scenarioSeq).padStart(2, '0')}-${scenario}`);
  const workspace = join(scratch, 'workspace');
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(workspace, { recursive: true });
  mkdirSync(join(home, '..', 'user-home'), { recursive: true });
  for (const [path, content] of Object.entries(options.files ?? {})) {
    mkdirSync(dirname(join(workspace, path)), { recursive: true });
    writeFileSync(join(workspace, path), content);
  }

  const model = await startMockModel({
    script: options.script,
    ...(options.streaming === undefined ? {} : { streaming: options.streaming }),
    maxRequests: 400,
    maxSeconds: BOOT_TIMEOUT_MS / 1000,
  });

  const overlays: string[] = [];
  const infra = join(scratch, 'infra.patch.yml');
  writeFileSync(infra, infraOverlay(home, { plainLog: true }));
  overlays.push(infra);
  if (options.rows !== undefined) {
    const extra = join(scratch, 'scenario.patch.yml');
    writeFileSync(extra, options.rows(scratch));
    overlays.push(extra);
  }
  if (mode === 'overlay') {
    const mount = join(scratch, 'breaker.patch.yml');
    writeFileSync(
      mount,
      `- insert:\n    - id: ${PLUGIN_ID}\n      name: ${JSON.stringify(plugin.entry)}\n${configYaml(options.config, '      ')}`,
    );
    overlays.push(mount);
  } else if (mode === 'bundle') {
    // The user's own layer of the profile: reconfigure the bundle's row by id.
    writeFileSync(join(home, 'profiles', 'headless', 'cordis.patch.yml'), profilePatch(PLUGIN_ID, options.config));
  }
  const args = headlessArgs(overlays, `Scenario ${scenario}: follow the script.`);
  try {
    const before = new Set(findSessionLogs(home));
    const run = await exec(NODE22, args, { cwd: workspace, env: baseEnv(home, model.url), timeoutMs: BOOT_TIMEOUT_MS });
    const fresh = findSessionLogs(home).filter((p) => !before.has(p));
    const log = fresh.length === 1 ? readSessionLog(fresh[0]!) : undefined;
    const result: Boot = { ...run, log, model };
    writeFileSync(
      join(scratch, 'boot.json'),
      JSON.stringify(
        { args, code: run.code, signal: run.signal, ms: run.ms, sessionLogs: fresh, stdout: run.stdout, stderr: run.stderr },
        null,
        2,
      ),
    );
    return result;
  } finally {
    await model.close();
  }
}

function describeSteps(steps: readonly ToolStep[]): string {
  return steps
    .map(
      (s, i) =>
        `  ${String(i + 1).padStart(2)}. ${s.isError ? 'DENIED/ERR' : 'ran      '} ${JSON.stringify(s.arguments.command)} → ${JSON.stringify(
          s.text
            .replace(/\[stderr\]\n?/g, '')
            .replace(/\s+/g, ' ')
            .trim()
            .slice(0, 100),
        )}`,
    )
    .join('\n');
}

/** The boot ended cleanly and logged exactly the scripted calls, each settled. */
function assertCompleted(t: TestContext, b: Boot, expectedCalls: number): SessionLog {
  assert.equal(b.code, 0, `dsh exited ${String(b.code)} (${String(b.signal)}) in ${b.ms} ms\n${b.stderr.slice(-3000)}`);
  assert.ok(b.log, 'one new session log');
  const log = b.log;
  assert.equal(log.steps.length, expectedCalls, `tool calls in the log\n${describeSteps(log.steps)}`);
  assert.ok(
    log.steps.every((s) => s.settled),
    'every call has a result',
  );
  assert.ok(log.turnsEnded >= 1, 'the turn ended');
  t.diagnostic(`dsh exited 0 after ${b.ms} ms; trajectory:\n${describeSteps(log.steps)}`);
  return log;
}

const ran = (s: ToolStep): boolean => !s.isError;

function identicalEcho(n: number): ScriptedCall[] {
  return Array.from({ length: n }, (_, i) => ({
    name: 'bash',
    arguments: { command: 'echo same-output', description: `print it, try ${i + 1}`, timeoutMs: 10_000 + i },
  }));
}

function failingCurl(port: number, n: number): ScriptedCall[] {
  return Array.from({ length: n }, (_, i) => ({
    name: 'bash',
    arguments: { command: `curl -sS --max-time 5 http://127.0.0.1:${port}/health`, description: `check health ${i + 1}` },
  }));
}

before(async () => {
  caps = await shippedCaps(plugin);
  rmSync(ROOT, { recursive: true, force: true });
  for (const mode of ['bundle', 'overlay', 'control'] as const) mkdirSync(homeOf(mode), { recursive: true });
  // Bundle mode: install the packed tarball into the headless profile, the way a user does.
  const home = homeOf('bundle');
  const add = await addPlugin({
    home,
    cwd: ROOT,
    spec: plugin.tarball,
    profile: 'headless',
    pnpmStore: join(ROOT, 'pnpm-store'),
    timeoutMs: 120_000,
  });
  assert.equal(add.code, 0, `dsh plugin add failed:\n${add.stdout}\n${add.stderr}`);
  const manifest = JSON.parse(readFileSync(join(home, 'profiles', 'headless', 'package.json'), 'utf8'));
  assert.ok(
    manifest.dsh?.profile?.bundles?.includes(plugin.packageName),
    `dsh plugin add listed ${plugin.packageName} as a profile bundle: ${JSON.stringify(manifest.dsh)}`,
  );
  console.log(`# bundle profile: ${JSON.stringify(manifest.dsh.profile.bundles)} (${add.ms} ms to add)`);
});

for (const mode of ['bundle', 'overlay'] as const) {
  describe(`dsh 0.1.0-rc.8 headless boot — ${plugin.label} mounted as ${mode === 'bundle' ? 'a profile bundle' : 'a --patch overlay (absolute entry path)'}`, () => {
    test('1. identical echo past the cap, onLimit: deny → cap-1 ran, the rest are REPEAT_TOOL_BLOCKED errors', async (t) => {
      const n = caps.exact + 2;
      const b = await boot(mode, 'deny', { config: { onLimit: 'deny' }, script: identicalEcho(n) });
      const log = assertCompleted(t, b, n);
      const ranSteps = log.steps.slice(0, caps.exact - 1);
      assert.ok(
        ranSteps.every((s) => ran(s) && s.text.trim() === 'same-output'),
        'the first cap-1 ran the command',
      );
      for (const s of log.steps.slice(caps.exact - 1)) {
        assert.equal(s.isError, true);
        assert.match(s.text, BLOCKED);
        assert.doesNotMatch(s.text, REFUSAL);
      }
      assert.equal(log.approvalsAsked.length, 0, 'deny never asks');
    });

    test('2. the same with onLimit: ask and no answerer → no stall; host denies the first gated call, later ones carry the refusal note', async (t) => {
      const n = caps.exact + 2;
      const b = await boot(mode, 'ask', { config: { onLimit: 'ask' }, script: identicalEcho(n) });
      const log = assertCompleted(t, b, n);
      assert.ok(log.steps.slice(0, caps.exact - 1).every(ran), 'the first cap-1 ran');
      const gated = log.steps[caps.exact - 1]!;
      assert.equal(gated.isError, true);
      const [hostLine = '', ...explanation] = gated.text.split('\n');
      assert.match(hostLine, UNAVAILABLE, "the host's approval layer denied the first gated call");
      if (plugin.label === 'ours') {
        // P13: the refused call carries the breaker's denial after the host's line, in the log and in what the model is sent.
        assert.match(
          explanation.join('\n'),
          /^REPEAT_TOOL_BLOCKED: bash call not run: no operator is present to approve it; it would be the \d+th call of its kind among your recent calls, counting this one and any that were stopped; the gate closes at \d+\. The loop breaker's repeat track asked for approval to run it, for:\n- exact:bash:/,
          `the breaker's explanation on the refused call itself: ${gated.text}`,
        );
        const shown = b.model.seenToolResults().find((r) => r.content.startsWith('Error: tool "bash" requires approval'));
        assert.ok(shown !== undefined, 'the model was sent the refused call');
        assert.match(shown.content, /\nREPEAT_TOOL_BLOCKED: bash call not run: no operator is present to approve it;[\s\S]*\nNo operator is present to approve them, so these measures stay blocked until the next human message\.[\s\S]*\nInstead: /, `what the model read: ${shown.content}`);
        // P18: nobody could answer, and the model is not told that somebody refused.
        assert.doesNotMatch(shown.content, /operator did not approve|not granted/, 'never an operator’s no where none could answer');
        t.diagnostic(`the refused call as the model read it:\n${shown.content}`);
      } else {
        assert.deepEqual(explanation, [], '0.5.2: only the host line');
      }
      assert.deepEqual(log.approvalsDecided, ['unavailable'], 'one ask, decided unavailable');
      assert.ok((log.approvalsAsked[0]?.reason ?? '').length > 0, 'the ask carried the plugin reason');
      for (const s of log.steps.slice(caps.exact)) {
        assert.equal(s.isError, true);
        assert.match(s.text, BLOCKED);
        assert.match(s.text, REFUSAL, 'later denials carry the refusal note');
      }
    });

    test('3. eight pages of one endpoint (?page=N, || true) → all eight ran', async (t) => {
      const b = await boot(mode, 'paging', {
        script: (url) =>
          Array.from({ length: 8 }, (_, i) => ({
            name: 'bash',
            arguments: { command: `curl -sS --max-time 5 "${url}/items?page=${i + 1}" || true`, description: `fetch page ${i + 1}` },
          })),
      });
      const log = assertCompleted(t, b, 8);
      log.steps.forEach((s, i) => {
        assert.equal(s.isError, false, `page ${i + 1} was not denied`);
        assert.equal(s.text.trim(), `items page ${i + 1}`, `page ${i + 1} output`);
      });
      assert.deepEqual(b.model.pageHits(), ['1', '2', '3', '4', '5', '6', '7', '8'], 'the endpoint served all eight');
      assert.equal(log.notices.filter((n) => n.plugin === PLUGIN_ID).length, 0, 'no advisory for paging');
    });

    test('4. a real failing command repeated → failLimit ran, the rest denied, the failure advisory is a plugin notice', async (t) => {
      const port = await closedPort();
      const n = caps.failLimit + 2;
      const b = await boot(mode, 'failing', {
        config: { onLimit: 'deny' },
        script: [...failingCurl(port, n), { name: 'bash', arguments: { command: 'ls -la', description: 'look around instead' } }],
      });
      const log = assertCompleted(t, b, n + 1);
      const attempts = log.steps.slice(0, n);
      for (const s of attempts.slice(0, caps.failLimit)) {
        assert.doesNotMatch(s.text, BLOCKED, 'ran');
        assert.match(s.text, /curl: \(7\)|exit code: 7/, 'the real curl failed to connect');
      }
      attempts.slice(caps.failLimit).forEach((s, at) => {
        assert.equal(s.isError, true);
        assert.match(s.text, BLOCKED);
        // P17: ours explains the loop once; its later denials in the turn point back to the first.
        assert.match(s.text, plugin.label === 'ours' && at > 0 ? /a loop blocked before \(/ : /consecutive failures/);
      });
      const recovery = log.steps[n]!;
      assert.equal(recovery.isError, false, 'a different call (ls) still runs');
      const notices = log.notices.filter((x) => x.plugin === PLUGIN_ID);
      assert.equal(notices.length, 1, `one breaker notice in the log: ${JSON.stringify(notices)}`);
      assert.match(notices[0]!.text, /^CONVERGENCE_CHECK:/);
      assert.match(notices[0]!.text, /exit/i, 'names the failure reason');
      assert.match(notices[0]!.text, /\b7\b/, 'and the exit status');
      assert.match(notices[0]!.summary ?? '', new RegExp(`failed x${caps.failWarnAt}$`));
    });

    test('5. a bad config (onLimit: bogus) → dsh exits non-zero and the error names the key', async (t) => {
      const b = await boot(mode, 'bad-config', { config: { onLimit: 'bogus' }, script: identicalEcho(1) });
      assert.notEqual(b.code, 0, 'dsh failed to boot');
      assert.match(b.stderr, /repeat-tool-breaker/, 'the error is attributed to the plugin');
      assert.match(b.stderr, /onLimit/, 'the error names the key');
      assert.match(b.stderr, /bogus/, 'and the bad value');
      assert.equal(b.log?.steps.length ?? 0, 0, 'no tool ran');
      const line = b.stderr.split('\n').find((l) => /onLimit/.test(l)) ?? '';
      t.diagnostic(`dsh exited ${String(b.code)} after ${b.ms} ms: ${line.trim()}`);
    });

    test('5a. caps saved in settings.yaml apply from the first turn: the base bundle\'s settings service serves the namespace', knownReferenceGap(plugin, 'no settings namespace'), async (t) => {
      // The user layer the web UI would have saved; removed afterwards, the home is shared by the mode's scenarios.
      const file = join(homeOf(mode), 'settings.yaml');
      writeFileSync(file, `${PLUGIN_ID}:\n  limits:\n    exact: 6\n    cmd: 6\n`);
      try {
        const b = await boot(mode, 'settings-yaml', { config: { onLimit: 'deny', limits: { exact: 3, cmd: 3 } }, script: identicalEcho(7) });
        const log = assertCompleted(t, b, 7);
        // Looser than the row: it applies in full only if the namespace was registered before the first human message.
        assert.deepEqual(
          log.steps.map((s) => s.isError),
          [false, false, false, false, false, true, true],
          'capped at the saved 6, not at the row config\'s 3',
        );
        assert.match(log.steps[5]!.text, BLOCKED);
      } finally {
        rmSync(file, { force: true });
      }
    });
  });
}

describe('dsh 0.1.0-rc.8 headless boot — control, no plugin', () => {
  test('6. no plugin → every call ran (identical echo past the cap, failing curl past failLimit)', async (t) => {
    const port = await closedPort();
    const script = [...identicalEcho(caps.exact + 2), ...failingCurl(port, caps.failLimit + 2)];
    const b = await boot('control', 'control', { script });
    const log = assertCompleted(t, b, script.length);
    for (const s of log.steps) assert.doesNotMatch(s.text, /REPEAT_TOOL_BLOCKED/);
    assert.ok(
      log.steps.slice(0, caps.exact + 2).every((s) => ran(s) && s.text.trim() === 'same-output'),
      'every echo ran',
    );
    assert.ok(
      log.steps.slice(caps.exact + 2).every((s) => /curl: \(7\)|exit code: 7/.test(s.text)),
      'every curl ran and failed',
    );
    assert.equal(log.notices.filter((n) => n.plugin === PLUGIN_ID).length, 0);
  });
});

/** Four different calls going round: grep → curl (the mock model's local endpoint) → head → echo, all offline. */
function fourCallCycle(url: string, n: number): ScriptedCall[] {
  const commands = [
    'grep -c root /etc/passwd',
    `curl -sS --max-time 5 "${url}/items?page=1"`,
    'head -n 1 /etc/passwd',
    'echo cycle-check',
  ];
  return Array.from({ length: n }, (_, i) => ({ name: 'bash', arguments: { command: commands[i % 4]!, description: `round ${Math.floor(i / 4) + 1}` } }));
}

describe('dsh 0.1.0-rc.8 headless boot — opt-in sequence track, mounted as a --patch overlay', () => {
  test(
    '7. a scripted four-call cycle: one sequence advisory at three repetitions, then REPEAT_TOOL_BLOCKED after four',
    plugin.label === 'reference' ? { todo: 'reference 0.5.2 has no sequence track' } : {},
    async (t) => {
      const n = 18;
      const b = await boot('overlay', 'sequence', {
        config: { onLimit: 'deny', sequence: { length: 4, count: 3, limit: 4 } },
        script: (url) => fourCallCycle(url, n),
      });
      const log = assertCompleted(t, b, n);
      log.steps.slice(0, 16).forEach((s, i) => assert.equal(s.isError, false, `call ${i + 1} ran`));
      for (const s of log.steps.slice(16)) {
        assert.equal(s.isError, true);
        assert.match(s.text, BLOCKED);
      }
      // The loop's first refusal this turn explains in full, naming the cycle from the stopped call on.
      const first = log.steps[16]!;
      assert.match(first.text, /by the sequence track/);
      assert.ok(first.text.includes(`- ${String(first.arguments.command).slice(0, 40)}`), first.text);
      assert.ok(first.text.includes('\u2192 head -n 1 /etc/passwd \u2192'), first.text);
      // P17: the later one is short, names the cycle once (quoted) and points back to the first.
      const later = log.steps[17]!;
      assert.doesNotMatch(later.text, /by the sequence track/);
      assert.match(later.text, /a loop blocked before \(sequence \u201ccurl -sS --max-time 5 "http:\/\/127\.0\.0\.1:\d+\/items\?page=1" \u2026\u201d\), 2 of its calls blocked this turn with this one; the first denial says why\.\nInstead: /);
      const notices = log.notices.filter((x) => x.plugin === PLUGIN_ID);
      assert.equal(notices.length, 1, `one breaker notice in the log: ${JSON.stringify(notices)}`);
      assert.match(notices[0]!.text, /^CONVERGENCE_CHECK:/);
      assert.match(notices[0]!.text, /4 different calls, repeated 3 times/);
      assert.equal(notices[0]!.summary, 'sequence \u201cgrep \u2192 curl \u2192 head \u2192 echo\u201d \u00d7 3', 'the cycle quoted (P15), named by its track (P16)');
      assert.ok(
        b.model.seenUserTexts().some((text) => text.includes('CONVERGENCE_CHECK: your recent calls are one cycle')),
        'the model was sent the advisory',
      );
      assert.deepEqual(b.model.pageHits(), ['1', '1', '1', '1'], 'the curl of each full repetition reached the endpoint; the denied ones did not');
    },
  );
});

/** The `context-echo` plugin (../lib/context-echo.ts) written into the scenario and mounted by absolute path. */
function contextEchoRows(scratch: string): string {
  const file = join(scratch, 'context-echo.mjs');
  writeFileSync(file, contextEchoModule());
  return `- insert:\n    - id: ${CONTEXT_ECHO}\n      name: ${JSON.stringify(file)}\n`;
}

/** Four different calls, so that only the re-attached context repeats. */
const FOUR_CALLS: ScriptedCall[] = ['grep -rn TODO . || true', 'ls -la', 'cat /etc/hostname', 'echo done'].map((command, i) => ({
  name: 'bash',
  arguments: { command, description: `step ${i + 1}` },
}));

/** `user/message` records in log order, as [plugin, text]. */
function pluginMessages(log: SessionLog): [string, string][] {
  return log.notices.map((n) => [n.plugin, n.text]);
}

describe(
  `dsh 0.1.0-rc.8 headless boot — duplicated-context track (opt-in) — ${plugin.label} as a --patch overlay`,
  { skip: plugin.label === 'reference' ? 'the reference 0.5.2 has no duplicated-context track' : undefined },
  () => {
    test('8. a plugin re-attaches the same 3 KB context to four tool results → one DUPLICATED_CONTEXT notice in the log, right after the third copy; every copy logged unchanged', async (t) => {
      // A long cooldown: on a loaded machine the fourth claim may come well after the third.
      const b = await boot('overlay', 'duplicate-context', { config: { duplicateText: { cooldownMs: 600_000 } }, script: FOUR_CALLS, rows: contextEchoRows });
      const log = assertCompleted(t, b, FOUR_CALLS.length);
      assert.ok(log.steps.every(ran), 'the track never gates a call');
      const messages = pluginMessages(log);
      const copies = messages.filter(([from]) => from === CONTEXT_ECHO);
      assert.equal(copies.length, 4, 'the four contexts entered the conversation');
      assert.ok(copies.every(([, text]) => text === NOTES), 'each copy is logged whole and unchanged');
      const ours = messages.filter(([from]) => from === PLUGIN_ID);
      assert.equal(ours.length, 1, `one breaker notice: ${JSON.stringify(ours.map(([, text]) => text.slice(0, 120)))}`);
      const text = ours[0]![1];
      assert.match(text, /^DUPLICATED_CONTEXT: /);
      assert.match(text, /3 times in 3 messages, from plugin:context-echo ×3/);
      assert.match(text, /"note 1: the staging database/);
      assert.ok(text.length < 1000 && !text.includes('note 2:'), 'a preview, never the whole text');
      const at = messages.findIndex(([from]) => from === PLUGIN_ID);
      assert.deepEqual(
        messages.slice(0, at).map(([from]) => from).filter((from) => from === CONTEXT_ECHO).length,
        3,
        'the notice entered the step that claimed the third copy',
      );
      const notice = log.notices.find((n) => n.plugin === PLUGIN_ID);
      assert.match(notice?.summary ?? '', /^duplicated context × 3: \u201cnote 1/);
      assert.ok(b.model.seenUserTexts().some((seen) => seen.startsWith('DUPLICATED_CONTEXT: ')), 'the model was sent the notice');
      t.diagnostic(`notice: ${text.split('\n')[0]}`);
    });

    test('9. the same boot with the track off (the default) → the four copies, and no breaker notice', async (t) => {
      const b = await boot('overlay', 'duplicate-context-off', { script: FOUR_CALLS, rows: contextEchoRows });
      const log = assertCompleted(t, b, FOUR_CALLS.length);
      const messages = pluginMessages(log);
      assert.equal(messages.filter(([from]) => from === CONTEXT_ECHO).length, 4);
      assert.equal(messages.filter(([from]) => from === PLUGIN_ID).length, 0);
    });
  },
);

/* ── streamed and parallel calls: fresh logs, replayed ───────────────────── */

/** Seeds no corpus recording uses (the corpus derives its own from 0x5eed): these logs are new to the project. */
const FRESH_STREAM: Streaming = { seed: 0xf7e54, pieces: [4, 5] };
const FRESH_POOL: Streaming = { seed: 0xf7e55, pieces: [4, 5] };
const UNAVAILABLE_READ = /^Error: tool "read" requires approval, but no approval channel is available$/;

/** Each call's argument pieces as DSH logged the stream (packed rows expanded), by call id. */
function argumentPieces(log: SessionLog): Map<string, string[]> {
  const pieces = new Map<string, string[]>();
  for (const r of log.records) {
    const chunk = r.type === 'assistant/chunk' ? r.data?.chunk : undefined;
    if (chunk?.type !== 'tool-call-delta' || chunk.argumentsDelta === '') continue;
    pieces.set(chunk.id, [...(pieces.get(chunk.id) ?? []), chunk.argumentsDelta]);
  }
  return pieces;
}

/** The replay of a fresh log, with the very build that ran live, against what the log shows. */
async function assertReplayMatches(t: TestContext, log: SessionLog, config: Record<string, unknown>): Promise<void> {
  const { apply } = await importPlugin(plugin);
  const report = await replaySession(log, { config, answer: 'none', apply });
  const live = liveVerdicts(log);
  const verdicts = report.trajectory.map(({ call, tool, outcome, by }) => ({ call, tool, outcome, ...(by === undefined ? {} : { by }) }));
  assert.deepEqual(verdicts, live.calls, 'the replay denies exactly the calls the live session denied, by the same layer');
  assert.deepEqual(report.trajectory.flatMap((call) => call.notices), live.notices, 'and delivers exactly its notices, in order');
  assert.deepEqual(
    report.trajectory.map(({ call, tool, outcome, by, notices }) => ({ call, tool, outcome, ...(by === undefined ? {} : { by }), notices })),
    liveTrajectory(log),
    'each notice after the call that earned it',
  );
  assert.equal(report.inferred, 0);
  t.diagnostic(`replayed ${report.calls} calls: asked ${report.asked}, denied ${report.denied}, advisories ${JSON.stringify(report.advisories)}`);
}

describe(`dsh 0.1.0-rc.8 headless boot — a streaming model, logs replayed — ${plugin.label} as a profile bundle`, () => {
  test('10. arguments streamed in 4–5 pieces with reasoning: the log packs them, and its replay has exactly the live denials and notices', async (t) => {
    const n = caps.exact + 2;
    const b = await boot('bundle', 'streamed', { script: identicalEcho(n), streaming: FRESH_STREAM });
    const log = assertCompleted(t, b, n);
    const text = readLogText(log.path);
    assert.match(text, /"type":"tool-call-chunks"/, 'DSH packed the argument deltas');
    assert.match(text, /"type":"reasoning-chunks"/, 'and the reasoning deltas');
    const pieces = argumentPieces(log);
    for (const step of log.steps) {
      const got = pieces.get(step.callId) ?? [];
      assert.ok(got.length >= 4 && got.length <= 5, `${step.callId}: ${got.length} pieces`);
      assert.deepEqual(JSON.parse(got.join('')), step.arguments, 'the pieces join to the call the agent loop ran');
    }
    const live = liveVerdicts(log);
    assert.deepEqual(
      live.calls.filter((call) => call.outcome === 'denied').map((call) => [call.call, call.by]),
      [
        [caps.exact, 'approval'],
        [caps.exact + 1, 'plugin'],
        [caps.exact + 2, 'plugin'],
      ],
    );
    assert.equal(live.notices.length, 2, 'the warn and summarize advisories');
    await assertReplayMatches(t, log, {});
  });

  const asksTwice = knownReferenceGap(plugin, 'settles a declined ask at post-execute, so the next call of the pool is asked again');
  test('11. three parallel reads of one file per step until the gate: each call’s verdict, in DSH’s pool order (one ask, P8), and a replay that reproduces it', asksTwice, async (t) => {
    const n = caps.exact;
    const script = pooledReads(n, n + 4);
    const calls = script.flat().length;
    const b = await boot('bundle', 'parallel-reads', { script, streaming: FRESH_POOL, files: { [POOLED_FILE]: 'step 3/5 test: running\n' } });
    const log = assertCompleted(t, b, calls);
    // DSH ran each step's calls as a pool: the step's tool/call records come before its results.
    const gating = log.events.filter((e) => e.kind === 'call' || e.kind === 'result').map((e) => e.kind);
    assert.ok(gating.join(' ').includes('call call call result result result'), 'a step logged as a pool');
    log.steps.slice(0, n - 1).forEach((s, i) => {
      assert.equal(s.isError, false, `call ${i + 1} ran`);
      assert.match(s.text, /step 3\/5 test: running/, `call ${i + 1} read the file`);
    });
    // Call n's refusal settles after call n-1's body, but call n+1's policy already knows it was not approved (P8).
    const gated = log.steps[n - 1];
    assert.match((gated?.text ?? '').split('\n')[0] ?? '', UNAVAILABLE_READ, `${gated?.callId}: asked, refused by the approval layer`);
    assert.deepEqual(log.approvalsDecided, ['unavailable'], 'one ask in the gating step');
    for (const s of log.steps.slice(n)) {
      assert.match(s.text, BLOCKED);
      assert.match(s.text, REFUSAL, 'later denials carry the refusal note');
    }
    assert.deepEqual(
      liveTrajectory(log).flatMap((call) => (call.notices.length > 0 ? [call.call] : [])),
      [caps.warnAt, caps.summarizeAt],
      'the advisories came from the calls that reached the stages',
    );
    await assertReplayMatches(t, log, {});
  });
});

/**
 * A plugin of the operator's that prints the breaker's logger lines to stderr,
 * prefixed `LOG `: rc.8 attaches no exporter that prints, so this is how a
 * headless operator would see them (README, "Where the operator sees it").
 */
function logExporterModule(): string {
  return [
    'export default {',
    "  name: 'breaker-log-to-stderr',",
    '  apply: (ctx) => {',
    '    ctx.logger.exporter({',
    '      export: (message) => {',
    `        if (message.name !== ${JSON.stringify(PLUGIN_ID)}) return;`,
    '        const [format, ...params] = message.args;',
    "        process.stderr.write(`LOG ${message.type} ${String(format).replace(/%s/, () => String(params.shift()))}\\n`);",
    '      },',
    '    });',
    '  },',
    '};',
    '',
  ].join('\n');
}

/** What the breaker can have put on a terminal: its log lines or its name. */
const BREAKER_ON_TERMINAL = /advisory: |gate, (denied|asked)|repeat-tool-breaker/;

/** The breaker's own lines on a terminal (plugin/terminal.ts): each starts with its name. */
function terminalLines(output: string): string[] {
  return output.split('\n').filter((line) => line.startsWith(`${PLUGIN_ID}: `));
}

describe(`dsh 0.1.0-rc.8 headless boot — what the operator reads on the terminal — ${plugin.label} as a --patch overlay`, () => {
  const ours = knownReferenceGap(plugin, 'logs nothing and refuses no unknown key');
  /** The two measures an identical `echo same-output` is gated under, at the cap (`caps` is read in `before`). */
  const atCap = (): string => `repeat: exact \u201cbash:{"command":"echo same-output"}\u201d ${caps.exact}/${caps.exact}, cmd \u201cecho:echo same-output\u201d ${caps.exact}/${caps.exact}`;

  test('12. onLimit: deny: stderr holds one line per advisory, one when the gate closes, and the turn’s summary, none of the logger’s lines; stdout is the final answer; exit 0', async (t) => {
    const n = caps.exact + 2;
    const b = await boot('overlay', 'log-silent', { config: { onLimit: 'deny' }, script: identicalEcho(n) });
    const log = assertCompleted(t, b, n);
    assert.equal(log.steps.filter((s) => s.isError).length, 3, 'three calls were refused');
    assert.doesNotMatch(b.stdout, BREAKER_ON_TERMINAL, 'stdout is the final answer');
    if (plugin.label === 'reference') {
      assert.doesNotMatch(b.stderr, BREAKER_ON_TERMINAL, '0.5.2: nothing of the breaker on stderr');
      return;
    }
    t.diagnostic(b.stderr);
    assert.deepEqual(terminalLines(b.stderr), [
      `${PLUGIN_ID}: advisory: cmd \u201cecho:echo same-output\u201d \u00d7 ${caps.warnAt}`,
      `${PLUGIN_ID}: advisory: cmd \u201cecho:echo same-output\u201d \u00d7 ${caps.summarizeAt}`,
      `${PLUGIN_ID}: gate, denied: bash, ${atCap()}`,
      `${PLUGIN_ID}: turn 1 ended: 1 loop gated, 3 calls refused; the loop ran ${caps.exact - 1} calls`,
    ]);
    // rc.8 prints nothing of cordis' logger: its lines for the refused calls after the first are nowhere.
    assert.doesNotMatch(b.stderr, new RegExp(`${caps.exact + 1}/${caps.exact}`), 'no logger line');
  });

  test('13. with an exporter of the operator’s, one line per advisory and per gate: the measure and the count, the model’s text quoted and short', ours, async (t) => {
    const n = caps.exact + 2;
    const b = await boot('overlay', 'log-exported', {
      config: { onLimit: 'deny' },
      script: identicalEcho(n),
      rows: (scratch) => {
        const file = join(scratch, 'log-exporter.mjs');
        writeFileSync(file, logExporterModule());
        return `- insert:\n    - id: breaker-log-to-stderr\n      name: ${JSON.stringify(file)}\n`;
      },
    });
    assertCompleted(t, b, n);
    const lines = b.stderr.split('\n').filter((line) => line.startsWith('LOG '));
    t.diagnostic(lines.join('\n'));
    const echo = 'exact \u201cbash:{"command":"echo same-output"}\u201d';
    assert.deepEqual(lines, [
      `LOG info advisory: cmd \u201cecho:echo same-output\u201d × ${caps.warnAt}`,
      `LOG info advisory: cmd \u201cecho:echo same-output\u201d × ${caps.summarizeAt}`,
      ...[0, 1, 2].map((past) => `LOG info gate, denied: bash, repeat: ${echo} ${caps.exact + past}/${caps.exact}, cmd \u201cecho:echo same-output\u201d ${caps.exact + past}/${caps.exact}`),
    ]);
    assert.doesNotMatch(b.stdout, BREAKER_ON_TERMINAL, 'stdout stays the final answer');
  });

  test('14. a bad key in the row stops the boot with the refusal on a line of its own that starts repeat-tool-breaker:', ours, async () => {
    const b = await boot('overlay', 'bad-key', { config: { onlimit: 'deny' }, script: [] });
    assert.notEqual(b.code, 0, 'the boot fails');
    const refusals = b.stderr.split('\n').map((line) => line.trim()).filter((line) => line.startsWith('repeat-tool-breaker:'));
    assert.ok(refusals.length >= 1, b.stderr);
    assert.equal(refusals[0], 'repeat-tool-breaker: `onlimit` is not a setting (got "deny"). Did you mean `onLimit`? Unknown keys are refused so that a misspelt setting is never silently ignored.');
    assert.doesNotMatch(b.stderr, /dist\/lib\/config\/config\.js/, 'none of the plugin’s frames');
    assert.ok(b.stderr.split('\n').length < 30, `a short stderr (${b.stderr.split('\n').length} lines)`);
  });

  test('15. onLimit: ask and nobody to answer (DSH’s unavailable): the gate line says no operator could answer, never that one refused; then the summary', ours, async (t) => {
    const n = caps.exact + 2;
    const b = await boot('overlay', 'terminal-unattended', { config: { onLimit: 'ask' }, script: identicalEcho(n) });
    const log = assertCompleted(t, b, n);
    assert.deepEqual(log.approvalsDecided, ['unavailable'], 'DSH had no one to ask');
    const lines = terminalLines(b.stderr);
    t.diagnostic(lines.join('\n'));
    assert.deepEqual(lines.slice(2), [
      `${PLUGIN_ID}: gate, asked, no operator could answer: bash, ${atCap()}`,
      `${PLUGIN_ID}: turn 1 ended: 1 loop gated, 3 calls refused; the loop ran ${caps.exact - 1} calls`,
    ]);
    assert.doesNotMatch(lines.join('\n'), /rejected|refused by|the operator (did not|refused)/, 'the terminal never says an operator refused');
    for (const line of lines) assert.ok(line.length <= 400, `a bounded line: ${line.length}`);
    // What the model was sent (P18): the refused calls say no operator is present, never that one refused.
    const seen = b.model.seenToolResults().map((result) => result.content);
    const refused = seen.filter((content) => content.includes('REPEAT_TOOL_BLOCKED'));
    assert.equal(refused.length, 3, 'the model read the three refused calls');
    for (const content of refused) {
      assert.doesNotMatch(content, /operator did not approve|not granted/, `the model is not told an operator refused: ${content}`);
      assert.match(content, /no operator is present to approve/, content);
    }
  });

  test('16. stopAfter: 3 and a model that keeps repeating a refused call: the turn ends after the third refused call; the session and the terminal say why; DSH exits 1', ours, async (t) => {
    const n = caps.exact + 8;
    const b = await boot('overlay', 'stop', { config: { onLimit: 'deny', stopAfter: 3 }, script: identicalEcho(n) });
    t.diagnostic(b.stderr);
    assert.equal(b.code, 1, `a blocked turn: DSH headless exits 1 (got ${String(b.code)})`);
    assert.ok(b.log, 'one new session log');
    const log = b.log;
    assert.deepEqual(
      log.steps.map((s) => s.isError),
      [...Array.from({ length: caps.exact - 1 }, () => false), true, true, true],
      `${caps.exact - 1} calls ran, three were refused, and no call came after them\n${describeSteps(log.steps)}`,
    );
    assert.equal(log.turnsEnded, 1, 'the turn ended');
    assert.match(log.steps[caps.exact + 1]?.text ?? '', /\nThe loop breaker ends this turn now, this loop blocked 3 times; the operator is told why\.$/);
    // The notice appended to the session before the step was rejected: the web UI's row, and what the model reads next turn.
    const stop = log.notices.filter((notice) => notice.plugin === PLUGIN_ID).at(-1);
    assert.equal(stop?.summary, 'turn ended after 3 refused calls: cmd \u201cecho:echo same-output\u201d');
    assert.match(stop?.text ?? '', /^REPEAT_TOOL_STOPPED: the loop breaker ended the previous turn before its next step\./);
    assert.deepEqual(terminalLines(b.stderr), [
      `${PLUGIN_ID}: advisory: cmd \u201cecho:echo same-output\u201d \u00d7 ${caps.warnAt}`,
      `${PLUGIN_ID}: advisory: cmd \u201cecho:echo same-output\u201d \u00d7 ${caps.summarizeAt}`,
      `${PLUGIN_ID}: gate, denied: bash, ${atCap()}`,
      `${PLUGIN_ID}: turn 1 stopped by the loop breaker after 3 refused calls of one loop (stopAfter: 3): \u201cbash\u201d, cmd \u201cecho:echo same-output\u201d; 1 loop gated, 3 calls refused; the loop ran ${caps.exact - 1} calls`,
    ]);
    assert.doesNotMatch(b.stdout, BREAKER_ON_TERMINAL, 'stdout stays the final answer');
  });
});
