/**
 * Minimal-preset suite: the real `dsh` 0.1.0-rc.8 CLI, headless, under Node 22,
 * with the tools of DSH's own `minimal` agent preset ("极简模式"): the rows of
 * `@deepseek-ai/dsh/config/agent-presets/minimal/agent.cordis.yml` that compose
 * the persistent `bash` (`dsh-tool-bash-persistent` over the PTY service) and
 * `str_replace_editor` over the bare local filesystem, taken from the shipped
 * file as they are and inserted in place of the headless profile's one-shot
 * tools (rc.8's headless runner creates its agent without an agent preset, so
 * the preset's rows are mounted at the root). One change: the persistent bash's
 * time limit is 10 s instead of the preset's 300 s, so a time-out takes seconds
 * (not 2 s: on a busy machine python3 alone took longer to start, and a run
 * meant to finish timed out).
 *
 * The plugin is mounted by a `--patch` overlay with `preset: recommended` and
 * `onLimit: deny`, and the scripted mock model (../lib/mock-model.ts) makes
 * the calls. Assertions read the session log: what the model was shown.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test, type TestContext } from 'node:test';

import { configYaml, dshEnv, exec, headlessArgs, infraOverlay } from '../lib/dsh.js';
import { HOST_MODULES, NODE22, pluginUnderTest, WORK_DIR } from '../lib/env.js';
import { startMockModel, type ScriptedCall } from '../lib/mock-model.js';
import { findSessionLogs, readSessionLog, type SessionLog, type ToolStep } from '../lib/session-log.js';

const plugin = pluginUnderTest();
const onlyOurs = plugin.label === 'reference' ? { todo: 'reference 0.5.2 has no preset and no opt-in tracks' } : {};
const ROOT = join(WORK_DIR, 'minimal', plugin.label);
const BOOT_TIMEOUT_MS = 120_000;
const PRESET_FILE = join(HOST_MODULES, '@deepseek-ai', 'dsh', 'config', 'agent-presets', 'minimal', 'agent.cordis.yml');
const CONFIG = { onLimit: 'deny', preset: 'recommended' };
const BLOCKED = /^Error: REPEAT_TOOL_BLOCKED/;

/** The shipped preset's tool rows (the two groups), with the persistent bash's time limit cut to 10 s. */
function presetToolRows(): string {
  const text = readFileSync(PRESET_FILE, 'utf8');
  const from = text.indexOf('- id: persistent-shell');
  assert.ok(from > 0, `the minimal preset composes a persistent-shell group (${PRESET_FILE})`);
  const rows = text.slice(from);
  for (const name of ['@deepseek-ai/dsh-tool-bash-persistent', '@deepseek-ai/dsh-tool-str-replace-editor', '@deepseek-ai/dsh-fs-local']) {
    assert.ok(rows.includes(`name: '${name}'`), `the preset's rows mount ${name}`);
  }
  const persistent = rows.indexOf("name: '@deepseek-ai/dsh-tool-bash-persistent'");
  const limit = rows.indexOf('timeoutMs: 300000', persistent);
  assert.ok(limit > persistent, 'the persistent bash row sets timeoutMs: 300000');
  return `${rows.slice(0, limit)}timeoutMs: 10000${rows.slice(limit + 'timeoutMs: 300000'.length)}`;
}

/** The overlay that swaps the headless profile's one-shot tools for the minimal preset's two. */
function minimalTools(): string {
  const off = ['tool-bash', 'tool-pwsh', 'tool-fs', 'tool-fs-search', 'tool-jobs', 'tool-str-replace-editor'].map((id) => `- id: ${id}\n  disabled: true\n`);
  const inserted = presetToolRows()
    .split('\n')
    .map((line) => (line.length === 0 ? line : `    ${line}`))
    .join('\n');
  return `# The minimal preset's tools in place of the one-shot ones.\n${off.join('')}- insert:\n${inserted}\n`;
}

interface Boot {
  readonly code: number | null;
  readonly ms: number;
  readonly stderr: string;
  readonly log: SessionLog | undefined;
  readonly workspace: string;
}

let seq = 0;

/** One headless run: the workspace, the mock model, the overlays; `script` gets the workspace's absolute path. */
async function boot(scenario: string, config: Record<string, unknown>, files: Record<string, string>, script: (workspace: string) => ScriptedCall[]): Promise<Boot> {
  seq += 1;
  const scratch = join(ROOT, `${String(seq).padStart(2, '0')}-${scenario}`);
  const home = join(scratch, 'home');
  const workspace = join(scratch, 'workspace');
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(workspace, { recursive: true });
  mkdirSync(home, { recursive: true });
  mkdirSync(join(home, '..', 'user-home'), { recursive: true });
  for (const [path, content] of Object.entries(files)) writeFileSync(join(workspace, path), content);
  const model = await startMockModel({ script: script(workspace), maxRequests: 200, maxSeconds: BOOT_TIMEOUT_MS / 1000 });
  const overlays = [join(scratch, 'infra.patch.yml'), join(scratch, 'minimal-tools.patch.yml'), join(scratch, 'breaker.patch.yml')];
  writeFileSync(overlays[0]!, infraOverlay(home, { plainLog: true }));
  writeFileSync(overlays[1]!, minimalTools());
  writeFileSync(overlays[2]!, `- insert:\n    - id: repeat-tool-breaker\n      name: ${JSON.stringify(plugin.entry)}\n${configYaml(config, '      ')}`);
  try {
    const args = headlessArgs(overlays, `Scenario ${scenario}: follow the script.`);
    // The persistent shell's children run in the process group dsh leads: stopped with it.
    const run = await exec(NODE22, args, { cwd: workspace, env: dshEnv(home, model.url, join(ROOT, 'pnpm-store')), timeoutMs: BOOT_TIMEOUT_MS, group: true });
    const logs = findSessionLogs(home);
    const log = logs.length === 1 ? readSessionLog(logs[0]!) : undefined;
    writeFileSync(join(scratch, 'boot.json'), JSON.stringify({ args, code: run.code, ms: run.ms, stdout: run.stdout, stderr: run.stderr }, null, 2));
    return { code: run.code, ms: run.ms, stderr: run.stderr, log, workspace };
  } finally {
    await model.close();
  }
}

function describeSteps(steps: readonly ToolStep[]): string {
  return steps.map((s, i) => `  ${String(i + 1).padStart(2)}. ${s.isError ? 'ERR' : 'ok '} ${s.name} ${JSON.stringify(s.arguments).slice(0, 90)} → ${JSON.stringify(s.text.replace(/\s+/g, ' ').slice(0, 110))}`).join('\n');
}

/** Whether the host failed a call before running it: DSH's persistent bash still resetting after a time-out. */
function hostAbortedASend(b: Boot): boolean {
  return (b.log?.steps ?? []).some((s) => s.isError && s.text.includes('PTY send aborted before write'));
}

function completed(t: TestContext, b: Boot, calls: number): SessionLog {
  assert.equal(b.code, 0, `dsh exited ${String(b.code)} in ${b.ms} ms\n${b.stderr.slice(-3000)}`);
  assert.ok(b.log, 'one session log');
  assert.equal(b.log.steps.length, calls, `tool calls in the log\n${describeSteps(b.log.steps)}`);
  assert.ok(b.log.steps.every((s) => s.settled), 'every call has a result');
  t.diagnostic(`dsh exited 0 after ${b.ms} ms; trajectory:\n${describeSteps(b.log.steps)}`);
  return b.log;
}

const bash = (command: string): ScriptedCall => ({ name: 'bash', arguments: { command } });
const editor = (args: Record<string, unknown>): ScriptedCall => ({ name: 'str_replace_editor', arguments: args });
const summaries = (log: SessionLog): string[] => log.notices.filter((n) => n.plugin === 'repeat-tool-breaker').map((n) => n.summary ?? '');

before(() => {
  rmSync(ROOT, { recursive: true, force: true });
  mkdirSync(ROOT, { recursive: true });
});

describe(`dsh 0.1.0-rc.8 headless with the minimal preset's persistent bash and str_replace_editor — ${plugin.label}, preset recommended`, () => {
  test('a run that keeps timing out, respelled each time, is advised at its 4th time-out and gated after its 5th by the timeouts track', onlyOurs, async (t) => {
    const train = 'import sys, time\nprint("epoch 1", flush=True)\ntime.sleep(60)\n';
    const run = (): Promise<Boot> => boot('timeouts', CONFIG, { 'train.py': train }, () => [50, 40, 30, 25, 20, 15, 10].map((n) => bash(`python3 train.py --epochs ${n}`)));
    let b = await run();
    // On a loaded machine the host's shell reset after a time-out can outlast the next call, which the
    // host then fails before running it: the scenario's premise (five time-outs) did not happen, so boot once more.
    if (hostAbortedASend(b)) {
      t.diagnostic(`the host aborted a PTY send (its shell reset outlasted the next call): booted again\n${describeSteps(b.log?.steps ?? [])}`);
      b = await run();
    }
    const log = completed(t, b, 7);
    for (const step of log.steps.slice(0, 5)) {
      assert.equal(step.isError, false, 'a persistent-bash time-out is no error result');
      assert.match(step.text, /^Your command timed out after 10 seconds or experienced an OOM error\. Below is partial output:\n(.*\n)*epoch 1\n/);
      assert.match(step.text, /\nThe persistent bash shell was reset; the next bash call starts from the workspace with a fresh current directory and environment\.$/);
    }
    assert.ok(summaries(log).includes('prog \u201cpython3 train.py\u201d timed out x4'), `the timeouts advisory at the 4th: ${JSON.stringify(summaries(log))}`);
    const advisory = log.notices.find((n) => n.summary === 'prog \u201cpython3 train.py\u201d timed out x4');
    assert.match(advisory?.text ?? '', /^CONVERGENCE_CHECK: python3 train\.py has run out of time 4 times this turn\./);
    for (const step of log.steps.slice(5)) {
      assert.equal(step.isError, true);
      assert.match(step.text, BLOCKED);
    }
    // The loop's first refusal explains in full; the second points back to it (P17) and, under the preset's stopAfter, says one more ends the turn.
    assert.match(log.steps[5]!.text, /prog:python3 train\.py/);
    assert.match(log.steps[5]!.text, /timeout track/);
    assert.match(
      log.steps[6]!.text,
      /^Error: REPEAT_TOOL_BLOCKED: bash call not run: a loop blocked before \(prog \u201cpython3 train\.py\u201d\), 2 of its calls blocked this turn with this one; the first denial says why\.\nInstead: [^\n]*\nOne more blocked call of this loop ends the turn\.$/,
    );
  });

  test('a refused str_replace re-sent respelled is advised at the 3rd and gated after the 4th by the edit-retry track; a view runs, and the edit made from it', onlyOurs, async (t) => {
    const b = await boot('edit-retry', CONFIG, { 'app.py': 'def total(xs):\n    return sum(xs)\n' }, (workspace) => {
      const path = join(workspace, 'app.py');
      const refused = (old: string): ScriptedCall => editor({ command: 'str_replace', path, old_str: old, new_str: 'return sum(xs) or 0' });
      return [
        // rc.8's fs-observation-policy refuses an edit of a file this agent has not read (FS_NOT_OBSERVED).
        editor({ command: 'view', path }),
        refused('return  sum(xs)'),
        refused('    return sum( xs )'),
        refused('return sum(x)'),
        refused('return sum (xs)'),
        refused('return sum(xs))'),
        editor({ command: 'view', path, view_range: [1, 2] }),
        editor({ command: 'str_replace', path, old_str: '    return sum(xs)', new_str: '    return sum(xs) or 0' }),
      ];
    });
    const log = completed(t, b, 8);
    assert.equal(log.steps[0]!.isError, false, 'the first view runs');
    for (const step of log.steps.slice(1, 5)) {
      assert.equal(step.isError, true);
      assert.match(step.text, /^Error: No replacement was performed, old_str `.*` did not appear verbatim in .*app\.py\.$/s);
    }
    // The summary quotes the file's path (P15): whole when it fits in 60 characters, its head and … when it does not.
    const path = join(b.workspace, 'app.py');
    const shown = path.length <= 60 ? path : `${path.slice(0, 60)}\u2026`;
    assert.ok(summaries(log).includes(`file \u201c${shown}\u201d rejected x3`), JSON.stringify(summaries(log)));
    const advisory = log.notices.find((n) => n.summary === `file \u201c${shown}\u201d rejected x3`);
    assert.match(advisory?.text ?? '', /were rejected \(the tool threw an error \(FS_EDIT_NOT_FOUND\)\)/, 'the refusal code read from error.info.code');
    assert.match(log.steps[5]!.text, BLOCKED);
    assert.match(log.steps[5]!.text, /edit-retry track/);
    assert.equal(log.steps[6]!.isError, false, 'the view of a window runs: it is a read, never gated by the edit-retry track');
    assert.match(log.steps[6]!.text, /^Here's the content of .*app\.py with line numbers \(which has a total of 3 lines\) with view_range=\[1, 2\]:/);
    assert.equal(log.steps[7]!.isError, false, 'the edit made from the view runs');
    assert.match(log.steps[7]!.text, /^The file .*app\.py has been edited successfully\.$/);
    assert.equal(readFileSync(path, 'utf8'), 'def total(xs):\n    return sum(xs) or 0\n');
  });

  test('a str_replace between two failing runs is a change: under failureProgress: restart six edit → rerun rounds with the same error run; the preset itself (outcomes) and the defaults gate the 6th run', onlyOurs, async (t) => {
    const files = { 'check.py': 'import sys\nprint("FAILED: total() is wrong")\nsys.exit(1)\n', 'app.py': 'VERSION = 0\n' };
    const script = (workspace: string): ScriptedCall[] => [
      editor({ command: 'view', path: join(workspace, 'app.py') }),
      ...[0, 1, 2, 3, 4, 5].flatMap((n) => [
        editor({ command: 'str_replace', path: join(workspace, 'app.py'), old_str: `VERSION = ${n}`, new_str: `VERSION = ${n + 1}` }),
        bash('python3 check.py'),
      ]),
    ];
    const withRestart = completed(t, await boot('changes', { ...CONFIG, failureProgress: 'restart' }, files, script), 13);
    const runs = withRestart.steps.filter((s) => s.name === 'bash');
    for (const run of runs) assert.match(run.text, /^FAILED: total\(\) is wrong\n\[exit code: 1\]$/, 'the persistent bash appends the status');
    assert.ok(withRestart.steps.every((s) => !s.isError), 'every edit and every run ran: each str_replace is a change');
    // Progress is a new outcome: an edit after which the check fails the same way changed nothing (issue 31).
    const withPreset = completed(t, await boot('changes-outcomes', CONFIG, files, script), 13);
    const unchanged = withPreset.steps.filter((s) => s.name === 'bash').map((s) => BLOCKED.test(s.text));
    assert.deepEqual(unchanged, [false, false, false, false, false, true], 'the preset reads the same failure after each edit as one failing retry');
    const defaults = completed(t, await boot('changes-defaults', { onLimit: 'deny' }, files, script), 13);
    const gated = defaults.steps.filter((s) => s.name === 'bash').map((s) => BLOCKED.test(s.text));
    assert.deepEqual(gated, [false, false, false, false, false, true], 'the defaults read the runs as one failing retry');
  });
});
