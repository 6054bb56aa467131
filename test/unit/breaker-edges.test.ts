/**
 * The breaker's edges, driven directly (no hook's fault barrier in between):
 * calls the breaker must pass through untouched, agents it cannot key, the
 * ceiling book's bookkeeping, and the exemption ceiling where an exemption at
 * its ceiling meets a second measure at its cap, a ceiling set or kept
 * mid-turn, and the quotes a denial at the ceiling shows.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createCeilingBook } from '../../src/lib/breaker/ceiling.js';
import { createBreaker, type Breaker } from '../../src/lib/breaker/breaker.js';
import { resolveConfig } from '../../src/lib/config/config.js';
import { BOOK_LIMIT } from '../../src/lib/memory/book.js';
import { bashResult, hitLines } from '../support/session.js';

interface Step {
  asked: boolean;
  denial: string | undefined;
  notices: readonly unknown[];
}

/** One call as the host runs it: pre-execute, then the guard unless the ask was declined, then post-execute. */
function step(breaker: Breaker, agent: object, command: unknown, options: { answer?: 'approve' | 'decline'; output?: string } = {}): Step {
  const exec = { name: 'bash', arguments: { command }, agent };
  const asked = breaker.ask(exec) !== undefined;
  const denial = asked && options.answer === 'decline' ? 'declined by the operator' : breaker.guard(exec);
  const result = denial === undefined ? bashResult(0, options.output ?? 'ok') : { isError: true, content: [{ type: 'text', text: `Error: ${denial}` }], error: { message: denial } };
  return { asked, denial, notices: breaker.settle(exec, result) };
}

const HUMAN = [{ source: { kind: 'user' }, content: 'go on' }];
const CURL = 'curl -s https://api.example.com/x';

describe('calls the breaker passes through', () => {
  const transparent: [string, unknown][] = [
    ['null', null],
    ['undefined', undefined],
    ['a string', 'bash'],
    ['a number', 42],
    ['a call without an agent', { name: 'bash', arguments: { command: 'ls' } }],
    ['a call whose agent is a string', { name: 'bash', arguments: { command: 'ls' }, agent: 'main' }],
    ['a call whose agent is null', { name: 'bash', arguments: { command: 'ls' }, agent: null }],
  ];
  for (const [what, exec] of transparent) {
    test(`${what} is never asked about, denied or owed a notice, however often it comes`, () => {
      const breaker = createBreaker(resolveConfig({ limits: { exact: 2 } }));
      for (let i = 0; i < 5; i += 1) {
        assert.equal(breaker.ask(exec), undefined);
        assert.equal(breaker.guard(exec), undefined);
        assert.deepEqual(breaker.settle(exec, bashResult(0, 'ok')), []);
      }
    });
  }

  test('a shell call whose command is not a string is counted by its arguments, with the sequence track on', () => {
    const breaker = createBreaker(resolveConfig({ onLimit: 'deny', limits: { exact: 3 }, sequence: { length: 2, count: 2, limit: 2 } }));
    const agent = {};
    const denials = [1, 2, 3].map(() => step(breaker, agent, 42).denial);
    assert.deepEqual(denials.map((denial) => denial !== undefined), [false, false, true]);
  });
});

describe('resetting agents', () => {
  test('a human message for an agent that cannot be keyed changes nothing, after a settings change too', () => {
    const breaker = createBreaker(resolveConfig({ onLimit: 'deny', limits: { exact: 2 } }));
    breaker.configure(resolveConfig({ onLimit: 'deny', limits: { exact: 3 } }));
    for (const agent of [null, undefined, 'main', 7]) breaker.reset({ agent, messages: HUMAN });
    const agent = {};
    assert.deepEqual([1, 2].map(() => step(breaker, agent, 'ls').denial !== undefined), [false, true], 'the load-time cap until the agent is reset');
  });

  test('an agent that is a function is reset by a human message', () => {
    const breaker = createBreaker(resolveConfig({ onLimit: 'deny', limits: { exact: 2 } }));
    const agent = (): void => undefined;
    assert.equal(step(breaker, agent, 'ls').denial, undefined);
    breaker.reset({ agent, messages: HUMAN });
    assert.equal(step(breaker, agent, 'ls').denial, undefined, 'the window started again');
    assert.notEqual(step(breaker, agent, 'ls').denial, undefined);
  });

  test('a human message clears every track the agent has used, the sequence track included', () => {
    const breaker = createBreaker(resolveConfig({ onLimit: 'deny', sequence: { length: 2, count: 2, limit: 2 } }));
    const agent = {};
    const cycle = ['grep -rn TODO src', 'echo done'];
    const first = [0, 1, 2, 3, 4].map((i) => step(breaker, agent, cycle[i % 2]).denial);
    assert.notEqual(first[4], undefined, 'the fifth call starts a third repetition');
    breaker.reset({ agent, messages: HUMAN });
    const after = [0, 1, 2, 3].map((i) => step(breaker, agent, cycle[i % 2]).denial);
    assert.deepEqual(after, [undefined, undefined, undefined, undefined]);
  });
});

describe('notices owed at post-execute', () => {
  test('a call owes exactly its advisories: no empty slot for a track that had none', () => {
    const breaker = createBreaker(resolveConfig({ warnAt: 2, summarizeAt: 3 }));
    const agent = {};
    const steps = [1, 2, 3].map(() => step(breaker, agent, 'ls'));
    assert.deepEqual(steps.map((s) => s.notices.length), [0, 1, 1]);
    for (const notice of steps.flatMap((s) => s.notices)) assert.equal(typeof notice, 'object');
  });
});

describe('the ceiling book', () => {
  test('a new approval leaves the earlier approvals\u2019 counts as they are', () => {
    const book = createCeilingBook();
    const agent = {};
    book.grant(agent, ['a']);
    book.use(agent, ['a']);
    book.grant(agent, ['b']);
    assert.equal(book.reached(agent, 'a', 1), true);
    assert.equal(book.reached(agent, 'b', 1), false);
  });

  test('spending for an agent that has no approval records nothing', () => {
    const book = createCeilingBook();
    const agent = {};
    book.use(agent, ['a']);
    book.grant(agent, ['a']);
    assert.equal(book.reached(agent, 'a', 1), false);
  });

  test('keys used without an approval take no place in the book', () => {
    const book = createCeilingBook();
    const agent = {};
    book.grant(agent, ['a']);
    book.use(agent, ['a']);
    book.use(agent, Array.from({ length: BOOK_LIMIT }, (_, i) => `other${i}`));
    book.grant(agent, ['b']);
    assert.equal(book.reached(agent, 'a', 1), true, 'still kept: only approvals fill the book');
  });
});

describe('the exemption ceiling at the gate', () => {
  test('an exemption at its ceiling denies the call without an ask, though another measure has reached its cap', () => {
    const breaker = createBreaker(resolveConfig({ exemptionCeiling: 1, limits: { exact: 4, host: 2 } }));
    const agent = {};
    const steps = [0, 1, 2, 3, 4].map((i) => step(breaker, agent, CURL, { output: `page ${i}` }));
    assert.deepEqual(
      steps.map((s) => [s.asked, s.denial !== undefined]),
      [
        [false, false],
        [true, false],
        [false, false],
        [false, true],
        [false, true],
      ],
    );
    const denial = steps[3]!.denial;
    assert.match(denial ?? '', /approval is used up/);
    assert.deepEqual(hitLines(denial), ['- host:api.example.com'], 'the measure at its ceiling, once, though the cap of `exact` is reached too');
    assert.equal(denial?.split('Previous result:\n')[1]?.split('\n')[0], 'page 2', 'the last result of a call that ran');
    // P17: the loop's second refusal this turn points back to the first, quoting no result and no earlier denial.
    const next = steps[4]!.denial ?? '';
    assert.match(next, /^REPEAT_TOOL_BLOCKED: bash call not run: the operator's approval is used up \(it allowed 1 call like it\); a loop blocked before \(host “api\.example\.com”\), 2 of its calls blocked this turn with this one; the first denial says why\.\n/);
    assert.deepEqual(hitLines(next), [], 'no hit lines');
    assert.ok(!next.includes('Previous result') && !next.includes('page'), 'no previous result');
    assert.equal(next.split('REPEAT_TOOL_BLOCKED').length, 2, 'the earlier denial is not quoted');
  });

  test('while an approved measure is below its ceiling, a second measure at its cap is asked about', () => {
    const breaker = createBreaker(resolveConfig({ exemptionCeiling: 5, limits: { exact: 4, host: 2 } }));
    const agent = {};
    const steps = [0, 1, 2, 3].map(() => step(breaker, agent, CURL));
    assert.deepEqual(steps.map((s) => s.asked), [false, true, false, true]);
    assert.ok(steps.every((s) => s.denial === undefined), 'no call is denied');
  });

  test('without a ceiling, a second measure at its cap is asked about while an approved one runs on', () => {
    const breaker = createBreaker(resolveConfig({ limits: { exact: 4, host: 2 } }));
    const agent = {};
    const steps = [0, 1, 2, 3, 4, 5].map(() => step(breaker, agent, CURL));
    assert.deepEqual(steps.map((s) => s.asked), [false, true, false, true, false, false]);
    assert.ok(steps.every((s) => s.denial === undefined), 'no call is denied');
  });

  test('a ceiling set mid-turn starts the count of exemptions approved before it', () => {
    const config = { limits: { exact: null, host: 2 } };
    const breaker = createBreaker(resolveConfig(config));
    const agent = {};
    const before = [0, 1, 2, 3, 4].map(() => step(breaker, agent, CURL));
    assert.deepEqual(before.map((s) => [s.asked, s.denial !== undefined]), [[false, false], [true, false], [false, false], [false, false], [false, false]]);
    breaker.configure(resolveConfig({ ...config, exemptionCeiling: 2 }));
    const after = [0, 1, 2].map(() => step(breaker, agent, CURL));
    assert.deepEqual(after.map((s) => [s.asked, s.denial !== undefined]), [[false, false], [false, false], [false, true]]);
  });

  test('another setting tightened mid-turn leaves a running count where it was', () => {
    const config = { exemptionCeiling: 3, limits: { exact: null, host: 2 } };
    const breaker = createBreaker(resolveConfig(config));
    const agent = {};
    const before = [0, 1, 2, 3].map(() => step(breaker, agent, CURL));
    assert.deepEqual(before.map((s) => s.denial !== undefined), [false, false, false, false], 'approved at the second call, two of three used');
    breaker.configure(resolveConfig({ ...config, warnAt: 5 }));
    const after = [0, 1].map(() => step(breaker, agent, CURL));
    assert.deepEqual(after.map((s) => s.denial !== undefined), [false, true]);
  });

  test('a measure at its ceiling and no longer at its cap is quoted by its mark, not by its identity key', () => {
    const long = `cat ${'x'.repeat(300)}`;
    const breaker = createBreaker(resolveConfig({ exemptionCeiling: 1, window: 4, limits: { exact: 2 } }));
    const agent = {};
    assert.deepEqual([0, 1].map(() => step(breaker, agent, long).asked), [false, true]);
    for (let i = 0; i < 4; i += 1) step(breaker, agent, `ls -${'abcd'[i]}`);
    assert.equal(step(breaker, agent, long).denial, undefined, 'the exemption\u2019s one call');
    const denial = step(breaker, agent, long).denial;
    assert.deepEqual(hitLines(denial), [`- exact:bash:{"command":"${long}"}`]);
  });

  test('a measure at its ceiling that is not the call\u2019s first is quoted by its own mark', () => {
    const breaker = createBreaker(resolveConfig({ exemptionCeiling: 1, window: 4, limits: { exact: null, host: 2 } }));
    const agent = {};
    assert.deepEqual([0, 1].map((i) => step(breaker, agent, `${CURL}${i}`).asked), [false, true]);
    for (let i = 0; i < 4; i += 1) step(breaker, agent, `ls -${'abcd'[i]}`);
    assert.equal(step(breaker, agent, `${CURL}7`).denial, undefined);
    assert.deepEqual(hitLines(step(breaker, agent, `${CURL}8`).denial), ['- host:api.example.com']);
  });
});
