/**
 * A call's actions as the stale and spin tracks follow them (tracks/actions.ts):
 * its identity and the measures that name it however spelled (`cmd:`, `act:`,
 * `net:`) when they are capped, nothing else; none for a poll.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveConfig } from '../../src/lib/config/config.js';
import { exactOf, targetOf } from '../../src/lib/call/fingerprint.js';
import { callMarks } from '../../src/lib/call/mark.js';
import { actionMarks, lookMarks } from '../../src/lib/tracks/actions.js';
import type { TrackedCall } from '../../src/lib/tracks/track.js';

/** A shell call as the breaker reads it, under `config`. */
function shellCall(command: string, config: Record<string, unknown>): TrackedCall {
  const cfg = resolveConfig(config);
  const args = { command };
  const target = targetOf('bash', args, cfg, true);
  const marks = callMarks(exactOf('bash', args, cfg), target, cfg);
  return { agent: {}, cfg, name: 'bash', command, line: target.line, marks, writes: false, file: undefined, reads: false, kept: [] } as unknown as TrackedCall;
}

const measures = (marks: readonly { measure: string }[]): string[] => marks.map((mark) => mark.measure);

describe('actionMarks: the measures that name one action however spelled', () => {
  test('a fetch: its identity, cmd:, act: and net:, not its verb, host, site or family', () => {
    const call = shellCall('curl -s https://example.com/a', { limits: { act: 12 } });
    assert.ok(measures(call.marks).includes('host'), 'the call has a host mark to leave out');
    assert.deepEqual(measures(actionMarks(call)), ['exact', 'cmd', 'act', 'net']);
  });

  test('a measure without a cap is no action: act: off by default, net: off when set to null', () => {
    assert.deepEqual(measures(actionMarks(shellCall('curl -s https://example.com/a', {}))), ['exact', 'cmd', 'net']);
    assert.deepEqual(measures(actionMarks(shellCall('curl -s https://example.com/a', { limits: { net: null } }))), ['exact', 'cmd']);
  });

  test('a write to a file: its sink: is not an action (two writes to one file are two actions)', () => {
    const call = shellCall('echo one > out.txt', { limits: { act: 12 } });
    assert.ok(measures(call.marks).includes('sink'), 'the call has a sink mark to leave out');
    assert.deepEqual(measures(actionMarks(call)), ['exact', 'cmd', 'act']);
  });

  test('a poll has no action; as a look (lookMarks) it keeps them', () => {
    const poll = shellCall('sleep 30; tail -n 5 build.log', { limits: { act: 12 } });
    assert.deepEqual(actionMarks(poll), []);
    assert.deepEqual(measures(lookMarks(poll)), ['exact', 'cmd', 'act']);
  });
});
