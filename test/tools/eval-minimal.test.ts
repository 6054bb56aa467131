/**
 * `npm run eval -- --tools minimal`: the recorded calls handed to the plugin as
 * DSH's minimal preset's tools write them (the persistent bash's plain text,
 * `str_replace_editor`'s commands and refusals), so a tool set can be compared
 * with the other on one corpus.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { classifyFailure } from '../../src/lib/result/failure.js';
import type { EpisodeCall } from '../../tools/eval/episode.js';
import { parseLabelled } from '../../tools/eval/labelled.js';
import { minimalCall, withTools } from '../../tools/eval/minimal.js';
import { runTool, tempDir, type ToolRun } from './support.js';

function trajectory(label: Record<string, unknown>, calls: readonly Record<string, unknown>[]): string {
  const meta = { meta: { repo: 'this-repo', path: 'x', commit: '0', group: 'g', harness: 'test', model: 'none', task: 't', outcome: {}, label } };
  return [JSON.stringify(meta), ...calls.map((call, i) => JSON.stringify({ i, is_error: false, ...call }))].join('\n') + '\n';
}

function callOf(line: Record<string, unknown>): EpisodeCall {
  const event = parseLabelled('/x/g/one.jsonl', trajectory({ class: 'good' }, [line])).events[0];
  assert.equal(event?.kind, 'call');
  return event as EpisodeCall;
}

const textOf = (call: EpisodeCall): string => ((call.result.content as { text: string }[])[0] as { text: string }).text;

describe('--tools minimal: each call as the minimal preset’s tools return it', () => {
  it('bash: {command} alone, a string value, [exit code: N] appended for a non-zero status', () => {
    const call = minimalCall(callOf({ tool: 'bash', input: { command: 'ls x', description: 'list' }, result: 'ls: cannot access x', exit_code: 2 }));
    assert.deepEqual(call.arguments, { command: 'ls x' });
    assert.equal(call.result.value, 'ls: cannot access x\n[exit code: 2]');
    assert.equal(textOf(call), 'ls: cannot access x\n[exit code: 2]');
    assert.deepEqual(classifyFailure(call.result, { shell: true }), { reason: 'exit', detail: '2' });
    assert.equal(textOf(minimalCall(callOf({ tool: 'bash', input: { command: 'true' }, result: 'ok', exit_code: 0 }))), 'ok');
  });

  it('bash: a time-out is the persistent bash’s sentence, partial output and reset notice, and reads as a time-out', () => {
    const call = minimalCall(callOf({ tool: 'bash', input: { command: 'python3 train.py' }, result: 'epoch 1', timed_out: true }));
    assert.match(textOf(call), /^Your command timed out after 300 seconds or experienced an OOM error\. Below is partial output:\nepoch 1\nThe persistent bash shell was reset;/);
    assert.deepEqual(classifyFailure(call.result, { shell: true }), { reason: 'timeout', detail: '300s' });
  });

  it('read is a str_replace_editor view, its window a view_range; a failed read is FS_NOT_FOUND', () => {
    const windowed = minimalCall(callOf({ tool: 'read', input: { file_path: 'src/a.py', offset: 101, limit: 100 }, result: 'x' }));
    assert.deepEqual([windowed.name, windowed.arguments], ['str_replace_editor', { command: 'view', path: '/workspace/src/a.py', view_range: [101, 200] }]);
    const whole = minimalCall(callOf({ tool: 'read', input: { path: '/repo/b.py' }, result: 'y' }));
    assert.deepEqual(whole.arguments, { command: 'view', path: '/repo/b.py' });
    const missing = minimalCall(callOf({ tool: 'read', input: { path: '/repo/c.py' }, result: 'no such file', is_error: true }));
    assert.deepEqual(classifyFailure(missing.result), { reason: 'error', detail: 'FS_NOT_FOUND' });
  });

  it('edit is str_replace (a rejection its FS_EDIT_NOT_FOUND refusal), write is create', () => {
    const edit = minimalCall(callOf({ tool: 'edit', input: { path: '/repo/a.py', old_string: '<lines 9:12>', new_string: 'x = 1' }, result: 'syntax error', is_error: true }));
    assert.deepEqual(edit.arguments, { command: 'str_replace', path: '/repo/a.py', old_str: '<lines 9:12>', new_str: 'x = 1' });
    assert.deepEqual(classifyFailure(edit.result), { reason: 'error', detail: 'FS_EDIT_NOT_FOUND' });
    assert.match(textOf(edit), /^Error: No replacement was performed, old_str `<lines 9:12>` did not appear verbatim in \/repo\/a\.py\.$/);
    const accepted = minimalCall(callOf({ tool: 'edit', input: { path: '/repo/a.py', old_string: 'a', new_string: 'b' }, result: 'ok' }));
    assert.equal(textOf(accepted), 'The file /repo/a.py has been edited successfully.');
    const write = minimalCall(callOf({ tool: 'write', input: { path: 'new.py', content: 'print(1)' }, result: 'ok' }));
    assert.deepEqual(write.arguments, { command: 'create', path: '/workspace/new.py', file_text: 'print(1)' });
  });

  it('every other tool is left as recorded; the one-shot tool set leaves the episode as it is', () => {
    const grep = callOf({ tool: 'grep', input: { pattern: 'x' }, result: 'a.py:1:x' });
    assert.equal(minimalCall(grep), grep);
    const episode = parseLabelled('/x/g/one.jsonl', trajectory({ class: 'good' }, [{ tool: 'bash', input: { command: 'ls' }, result: 'a' }]));
    assert.equal(withTools(episode, 'one-shot'), episode);
  });
});

describe('npm run eval -- --tools', () => {
  const run = (args: readonly string[]): Promise<ToolRun> => runTool('eval', args);

  function corpus(): string {
    const dir = tempDir();
    mkdirSync(join(dir, 'g'));
    // A training run that keeps running out of time, respelled each time.
    const train = Array.from({ length: 8 }, (_, n) => ({ tool: 'bash', input: { command: `python3 train.py --epochs ${50 - n * 5}` }, result: 'epoch 1', timed_out: true }));
    writeFileSync(join(dir, 'g', 'loop-1.jsonl'), trajectory({ class: 'loop', loop_start: 0 }, train));
    return dir;
  }

  it('the preset gates a respelled time-out loop through either tool set; 0.5.2 reads no persistent time-out', async () => {
    const dir = corpus();
    const oneShot = await run([dir, '--systems', 'ours,0.5.2', '--preset', 'recommended']);
    const minimal = await run([dir, '--systems', 'ours,0.5.2', '--preset', 'recommended', '--tools', 'minimal']);
    assert.equal(minimal.status, 0, minimal.stderr);
    const row = (out: string, system: RegExp): string => out.split('\n').find((line) => system.test(line)) ?? '';
    assert.match(row(oneShot.stdout, /^this plugin/), / 1\/1 +1\/1 /);
    assert.match(row(minimal.stdout, /^this plugin/), / 1\/1 +1\/1 /);
    assert.match(row(minimal.stdout, /^0\.5\.2/), / 0\/1 +0\/1 /);
  });

  it('an unknown tool set is a usage error, status 2', async () => {
    const result = await run([corpus(), '--tools', 'maximal']);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /--tools takes one-shot or minimal/);
  });
});
