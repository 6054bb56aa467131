/**
 * The mock model's answers (test/host/lib/stream.ts), which the recorder and
 * the host suites put in front of the real DSH: streamed as a real provider
 * streams them, and reproducible from a seed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { textDeltas, toolStepDeltas, type Delta, type ScriptedCall } from '../host/lib/stream.js';

const read: ScriptedCall = { name: 'read', arguments: { file_path: 'logs/build.log' } };
const bash: ScriptedCall = { name: 'bash', arguments: { command: 'tail -n 20 logs/build.log', description: 'check the build log' } };

interface WireCall {
  index: number;
  id?: string;
  function: { name?: string; arguments: string };
}

/** Each call's deltas, by its `index`. */
function callDeltas(deltas: readonly Delta[]): Map<number, WireCall[]> {
  const calls = new Map<number, WireCall[]>();
  for (const { delta } of deltas) {
    for (const call of (delta.tool_calls as WireCall[] | undefined) ?? []) calls.set(call.index, [...(calls.get(call.index) ?? []), call]);
  }
  return calls;
}

describe('the mock model’s stream', () => {
  it('cuts each call’s arguments into the asked number of pieces, which join back to the exact JSON', () => {
    for (let step = 0; step < 40; step += 1) {
      const calls = callDeltas(toolStepDeltas([read, bash], step, { seed: 99, pieces: [4, 5] }));
      assert.equal(calls.size, 2);
      [read, bash].forEach((call, at) => {
        const deltas = calls.get(at) ?? [];
        assert.equal(deltas[0]?.function.name, call.name, 'the first delta names the tool');
        assert.equal(deltas[0]?.id, `call_mock_${step}_${at}`);
        assert.ok(deltas.slice(1).every((d) => d.id === undefined && d.function.name === undefined), 'later deltas carry arguments only');
        const pieces = deltas.map((d) => d.function.arguments).filter((piece) => piece !== '');
        assert.ok(pieces.length >= 4 && pieces.length <= 5, `step ${step}, call ${at}: ${pieces.length} pieces`);
        assert.equal(pieces.join(''), JSON.stringify(call.arguments));
      });
    }
  });

  it('streams reasoning before the calls, ends with the tool_calls finish, and opens with the assistant role', () => {
    const deltas = toolStepDeltas([read, read, read], 3, { seed: 5 });
    const firstCall = deltas.findIndex((d) => d.delta.tool_calls !== undefined);
    const reasoning = deltas.slice(0, firstCall).filter((d) => typeof d.delta.reasoning_content === 'string');
    assert.ok(reasoning.length >= 2, 'reasoning in pieces');
    assert.equal(reasoning.map((d) => d.delta.reasoning_content).join(''), 'Step 4 of the script: read, read, read.');
    assert.equal(deltas[0]?.delta.role, 'assistant');
    assert.deepEqual(deltas.at(-1), { delta: {}, finishReason: 'tool_calls' });
    assert.deepEqual([...callDeltas(deltas).keys()], [0, 1, 2], 'three calls in one answer');
  });

  it('streams a final answer as reasoning and text pieces that join to the text', () => {
    const deltas = textDeltas('All done here.', 7, { seed: 5 });
    const text = deltas.map((d) => d.delta.content ?? '').join('');
    assert.equal(text, 'All done here.');
    assert.ok(deltas.filter((d) => typeof d.delta.content === 'string').length >= 2, 'the text comes in two pieces or more');
    assert.deepEqual(deltas.at(-1), { delta: {}, finishReason: 'stop' });
  });

  it('answers one step identically every time (an adapter retry), and differently under another seed', () => {
    assert.deepEqual(toolStepDeltas(bash, 2, { seed: 11 }), toolStepDeltas(bash, 2, { seed: 11 }));
    const cuts = (seed: number): string[][] =>
      Array.from({ length: 8 }, (_, step) => (callDeltas(toolStepDeltas(bash, step, { seed })).get(0) ?? []).map((d) => d.function.arguments));
    assert.notDeepEqual(cuts(11), cuts(12));
  });

  it('can leave reasoning out', () => {
    const deltas = toolStepDeltas(read, 0, { seed: 1, reasoning: false });
    assert.ok(deltas.every((d) => d.delta.reasoning_content === undefined), 'no delta carries reasoning');
  });
});
