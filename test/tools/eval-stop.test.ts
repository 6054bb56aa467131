/**
 * The eval replays each call as a model step (issue 41): `agent/pre-step` with
 * no new messages before the call's hooks, in rc.8's payload; a step a system
 * rejects ends the turn and the rest of the session is not replayed for it.
 * And the texts (issue 39): the characters of a system's own text the model
 * reads, and the words of its asks. Stub systems written here make each figure
 * come out at a value known in advance.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluate } from '../../tools/eval/evaluate.js';
import type { Episode, EpisodeCall, EpisodeEvent } from '../../tools/eval/episode.js';
import { figuresOf, sessionResult, wordCount } from '../../tools/eval/metrics.js';
import { replayEpisode } from '../../tools/eval/replay.js';
import { stopsTable, textsTable } from '../../tools/eval/texts-report.js';
import { builtPlugin, type System } from '../../tools/eval/systems.js';
import { denialResult, ReplayHost, type ReplayContext } from '../../tools/lib/replay-host.js';

const call = (index: number, agent = 'main'): EpisodeCall => ({
  kind: 'call',
  index,
  agent,
  name: 'bash',
  arguments: { command: 'make test' },
  result: { isError: false, content: [{ type: 'text', text: 'FAILED: 1 test' }], value: { kind: 'foreground', exitCode: 1 } },
});

function episode(events: readonly EpisodeEvent[], label: Episode['label'], resolved?: boolean): Episode {
  const calls = events.filter((event) => event.kind === 'call').length;
  return { name: 'test/session', path: '/t', label, events, calls, ...(resolved === undefined ? {} : { resolved }) };
}

const calls = (n: number): EpisodeCall[] => Array.from({ length: n }, (_, index) => call(index));

function stub(apply: (ctx: ReplayContext) => void, extra: Partial<System> = {}): System {
  return { label: 'stub', short: 'stub', role: 'peer', apply: (ctx) => apply(ctx), config: {}, gates: true, ...extra };
}

/** Denies every call from the `from`-th on, and rejects the step of the `stopAt`-th call. */
function gateThenStop(from: number, stopAt: number): System {
  return stub((ctx) => {
    let seen = 0;
    let steps = 0;
    ctx.tools.guard(() => (++seen > from ? 'refused: a loop' : undefined));
    ctx.on('agent/pre-step', (_payload: never, next: () => Promise<unknown>) => (++steps > stopAt ? { kind: 'reject' } : next()));
  });
}

describe('each call is a model step', () => {
  it("the pre-step before each call carries rc.8's payload: no new messages, its turn and step, a signal, and the call's agent", async () => {
    const seen: Record<string, unknown>[] = [];
    const agents: unknown[] = [];
    const recorder = stub((ctx) => {
      ctx.on('agent/pre-step', ((payload: Record<string, unknown>, next: () => Promise<unknown>) => {
        seen.push(payload);
        return next();
      }) as never);
      ctx.tools.guard((exec) => {
        agents.push((exec as { agent: unknown }).agent);
        return undefined;
      });
    });
    await replayEpisode(episode([call(0), call(1), call(2, 'sub:1')], { class: 'good' }), recorder);
    assert.deepEqual(
      seen.map((payload) => Object.keys(payload)),
      [0, 1, 2].map(() => ['messages', 'turn', 'step', 'signal', 'agent']),
    );
    assert.deepEqual(seen.map((payload) => [payload.messages, payload.turn, payload.step]), [[[], 1, 1], [[], 1, 2], [[], 1, 1]]);
    assert.deepEqual(seen.map((payload) => payload.agent), agents, 'each step is the agent of the call that follows it');
    assert.ok(seen.every((payload) => payload.signal instanceof AbortSignal), 'every step carries an abort signal');
  });

  it('a human message is claimed by the pre-step of the step it opens: a new turn, step 1, and no second pre-step for that call', async () => {
    const seen: unknown[][] = [];
    const recorder = stub((ctx) => {
      ctx.on('agent/pre-step', ((payload: { messages: unknown[]; turn: number; step: number }, next: () => Promise<unknown>) => {
        seen.push([payload.messages.length, payload.turn, payload.step]);
        return next();
      }) as never);
    });
    await replayEpisode(episode([call(0), call(1), { kind: 'human', text: 'go on' }, call(2), call(3)], { class: 'good' }), recorder);
    assert.deepEqual(seen, [[0, 1, 1], [0, 1, 2], [1, 2, 1], [0, 2, 2]]);
  });

  it("the step's decision, unless a listener changes it, enters the claimed messages as rc.8's does", async () => {
    const decisions: unknown[] = [];
    const recorder = stub((ctx) => {
      ctx.on('agent/pre-step', ((_payload: unknown, next: () => Promise<unknown>) =>
        next().then((decision) => {
          decisions.push(decision);
          return decision;
        })) as never);
    });
    await replayEpisode(episode([call(0)], { class: 'good' }), recorder);
    assert.deepEqual(decisions, [{ kind: 'enter', messages: [] }]);
  });

  it("this plugin's pre-step listener changes nothing on a step without a human message while the stop is off: the same decisions with and without the steps", async () => {
    const apply = await builtPlugin();
    const config = { onLimit: 'deny', preset: 'recommended', stopAfter: null };
    const ours: System = { label: 'ours', short: 'ours', role: 'ours', plugin: 'repeat-tool-breaker', apply, config, gates: true };
    const loop = episode(calls(12), { class: 'loop', loopStart: 0 });
    const replayed = await replayEpisode(loop, ours);
    assert.equal(replayed.stoppedAt, undefined, 'the stop is off: the plugin stops nothing');
    // The same calls on a host that never steps.
    const host = new ReplayHost(apply, config);
    const agent = { id: 'main' };
    const bare: [boolean, number][] = [];
    for (const event of calls(12)) {
      const exec = { callId: `call-${event.index}`, name: event.name, arguments: event.arguments, agent, signal: new AbortController().signal };
      const gate = await host.gate(exec, 'none');
      bare.push([gate.denied !== undefined, (await host.settle(exec, gate.denied === undefined ? event.result : denialResult(gate.denied))).length]);
    }
    host.dispose();
    assert.deepEqual(replayed.calls.map((outcome) => [outcome.denied, outcome.notices.length]), bare);
    assert.ok(bare.some(([denied]) => denied), 'the loop is gated');
  });
});

describe("this plugin's stop (stopAfter)", () => {
  it('with the preset (stopAfter: 3) the step after the third refused call of a loop is rejected: the run is handed back there', async () => {
    const ours: System = { label: 'ours', short: 'ours', role: 'ours', plugin: 'repeat-tool-breaker', apply: await builtPlugin(), config: { onLimit: 'deny', preset: 'recommended' }, gates: true };
    const loop = episode(calls(20), { class: 'loop', loopStart: 0 });
    const replayed = await replayEpisode(loop, ours);
    const denied = replayed.calls.filter((outcome) => outcome.denied).map((outcome) => outcome.index);
    assert.equal(denied.length, 3, `three refused calls: ${denied.join(', ')}`);
    assert.equal(replayed.stoppedAt, (denied[2] as number) + 1, 'the step of the call after the third is rejected');
    const result = sessionResult(loop, replayed);
    assert.deepEqual([result.refused, result.stoppedAt], [3, replayed.stoppedAt]);
  });

  it('a loop run stopped before its loop starts counts the loop as noticed and gated at its start, none of its calls run and none refused', async () => {
    const loop = episode(calls(10), { class: 'loop', loopStart: 8 }, false);
    const replayed = await replayEpisode(loop, gateThenStop(3, 6));
    assert.equal(replayed.stoppedAt, 6);
    const result = sessionResult(loop, replayed);
    assert.deepEqual([result.firstNotice, result.firstDenial, result.refused], [8, 8, 0]);
    const figures = figuresOf([result]);
    assert.deepEqual([figures.loopsNoticed, figures.loopsGated, figures.loopCallsRun, figures.loopsStopped], [1, 1, 0, 1]);
    assert.deepEqual(figures.toGate, { median: 0, max: 0 });
  });
});

describe('a step rejected ends the turn: the run is handed back', () => {
  it('the session stops at the call whose step was rejected: nothing after it is replayed, and the refusals count up to it', async () => {
    const loop = episode(calls(10), { class: 'loop', loopStart: 2 }, true);
    const replayed = await replayEpisode(loop, gateThenStop(4, 7));
    assert.equal(replayed.stoppedAt, 7, 'the 8th step was rejected');
    assert.deepEqual(replayed.calls.map((outcome) => outcome.index), [0, 1, 2, 3, 4, 5, 6]);
    const result = sessionResult(loop, replayed);
    assert.deepEqual([result.firstDenial, result.refused, result.stoppedAt, result.resolved], [4, 3, 7, true]);
    const figures = figuresOf([result]);
    assert.deepEqual([figures.loopsStopped, figures.stoppedResolved, figures.refusedPerGatedLoop], [1, 1, { median: 3, max: 3 }]);
    assert.equal(figures.loopCallsRun, 2, 'calls 2 and 3 ran before the gate');
  });

  it('good and progress runs stopped are counted apart; a loop stopped before its gate costs the calls up to the stop', async () => {
    const stopper = gateThenStop(100, 3);
    const runs = await evaluate(
      [episode(calls(6), { class: 'good' }), episode(calls(6), { class: 'progress' }), episode(calls(8), { class: 'loop', loopStart: 1 }, false)],
      [stopper],
    );
    const figures = runs[0]?.figures;
    assert.deepEqual([figures?.goodStopped, figures?.progressStopped, figures?.loopsStopped, figures?.stoppedResolved], [1, 1, 1, 0]);
    assert.equal(figures?.loopCallsRun, 2, 'calls 1 and 2 of the loop ran; the run was handed back before call 3');
    assert.equal(figures?.refusedPerGatedLoop, undefined, 'no loop was gated');
  });

  it('a peer that halts (every later call denied) has all of them counted as refused, and stops nothing', async () => {
    const loop = episode(calls(10), { class: 'loop', loopStart: 0 });
    const result = sessionResult(loop, await replayEpisode(loop, gateThenStop(3, 100)));
    assert.deepEqual([result.firstDenial, result.refused, result.stoppedAt], [3, 7, undefined]);
  });

  it('--sessions names the runs stopped, and whether each resolved later anyway', async () => {
    const runs = await evaluate([episode(calls(10), { class: 'loop', loopStart: 2 }, true)], [gateThenStop(4, 7)]);
    const run = runs[0];
    assert.ok(run !== undefined, 'the stub was replayed');
    assert.match(stopsTable(run), /test\/session +loop +4 \(\+2\) +3 +\d+ +7 \(\+5\) +yes/);
    assert.match(textsTable(runs), /stub +— +\d+\/\d+ +3\/3 +1\/1 +0\/0 +0\/0 +1/);
  });
});

describe("the system's own text the model reads", () => {
  it('counts every denial, every notice of its own and what it adds to a refused result, and nothing of the host or of another plugin', async () => {
    const noticeOf = (plugin: string, text: string): unknown => ({ role: 'user', content: [{ type: 'text', text }], source: { kind: 'plugin', plugin, summary: text } });
    const talker = stub(
      (ctx) => {
        let seen = 0;
        ctx.tools.guard(() => (++seen === 2 ? 'denied!' : undefined)); // 7 characters
        ctx.on('tools/post-execute', ((_exec: unknown, result: { content: { text: string }[] }, next: () => Promise<unknown>) =>
          next().then((decision) => ({
            ...(decision as object),
            additionalContexts: [noticeOf('talker', 'look'), noticeOf('someone-else', 'not mine')], // 4 characters of its own
            content: [{ type: 'text', text: `${result.content[0]?.text ?? ''}\nwhy` }], // 4 characters added
          }))) as never);
      },
      { plugin: 'talker' },
    );
    const replayed = await replayEpisode(episode(calls(2), { class: 'good' }), talker);
    assert.deepEqual(replayed.calls.map((outcome) => outcome.modelChars), [4 + 4, 7 + 4 + 4]);
    assert.deepEqual(replayed.calls.map((outcome) => outcome.notices), [['look'], ['look']]);
  });

  it("this plugin's figures: the asks of the same configuration with onLimit: ask, and the text of its denials and notices per gated loop", async () => {
    const ours: System = {
      label: 'ours',
      short: 'ours',
      role: 'ours',
      plugin: 'repeat-tool-breaker',
      apply: await builtPlugin(),
      config: { onLimit: 'deny' },
      gates: true,
      askConfig: { onLimit: 'ask' },
    };
    const loop = episode(calls(16), { class: 'loop', loopStart: 0 });
    const [run] = await evaluate([loop], [ours]);
    const figures = run?.figures;
    assert.ok(figures?.asks !== undefined && figures.asks > 0, 'the ask replay asked');
    assert.ok((figures?.askWords?.median ?? 0) > 10, `asks of ${figures?.askWords?.median} words`);
    const session = run?.sessions[0];
    assert.ok(session !== undefined && session.denials > 0, 'the loop is gated');
    assert.ok(session.modelChars > session.denials * 50, `${session.modelChars} characters over ${session.denials} denials`);
    assert.deepEqual(figures?.modelCharsPerGatedLoop, { median: session.modelChars, max: session.modelChars });
  });

  it('words are counted as an operator reads them: runs of non-space, across line breaks', () => {
    assert.equal(wordCount('Allow once:\n  runs it.  Reject'), 5);
    assert.equal(wordCount(''), 0);
  });
});
