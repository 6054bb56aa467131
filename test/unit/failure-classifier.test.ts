/**
 * The failure classifier (contract §4.1, structured rows then the shell text
 * fallback) and describeFailure (§4.2). The curl write-out rule is P1 and
 * lives in deviations.test.ts.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyFailure, TEXT_MARKS, type FailureReason } from '../../src/lib/result/failure.js';
import { describeFailure } from '../../src/lib/text/failure.js';
import { mulberry32 } from '../support/prng.js';
import { exampleOf } from '../support/regex-examples.js';

type Failure = { reason: string; detail: string } | null;

const valued = (value: unknown, extra: Record<string, unknown> = {}) => ({ isError: false, value, content: [{ type: 'text', text: 'out' }], ...extra });
const text = (body: string) => ({ isError: false, value: { kind: 'foreground', exitCode: 0 }, content: [{ type: 'text', text: body }] });
const F = (reason: string, detail = ''): Failure => ({ reason, detail });

describe('structured results, in order (§4.1)', () => {
  const rows: Array<[string, unknown, Failure]> = [
    ['isError with error.code gives error and the code', { isError: true, error: { code: 'ENOENT', name: 'Error' } }, F('error', 'ENOENT')],
    ['isError with only error.name gives error and the name', { isError: true, error: { name: 'TypeError' } }, F('error', 'TypeError')],
    ['isError with the code at error.info.code (thrown tool errors) gives that code', { isError: true, error: { message: 'x', info: { code: 'EISDIR' } } }, F('error', 'EISDIR')],
    ['isError with a non-string code gives an empty detail', { isError: true, error: { code: 42 } }, F('error')],
    ['isError with no error object gives error with an empty detail', { isError: true }, F('error')],
    ['isError wins over a non-zero exit code', { isError: true, value: { exitCode: 2 }, error: { code: 'E' } }, F('error', 'E')],
    ['a started background job is not a failure, even with a non-zero exit code', valued({ kind: 'background', exitCode: 1 }), null],
    ['a non-zero exitCode gives exit and the code', valued({ exitCode: 2 }), F('exit', '2')],
    ['a negative exitCode gives exit and the code', valued({ exitCode: -1 }), F('exit', '-1')],
    ['a string exitCode does not count', valued({ exitCode: '2' }), null],
    ['exit code 0 is not a failure', valued({ exitCode: 0 }), null],
    ['a timeout gives timeout and its duration', valued({ exitCode: 0, timedOut: true, timeoutMs: 5000 }), F('timeout', '5000ms')],
    ['a timeout without a duration gives an empty detail', valued({ timedOut: true, timeoutMs: 0 }), F('timeout')],
    ['an exit code is checked before a timeout', valued({ exitCode: 1, timedOut: true, timeoutMs: 5 }), F('exit', '1')],
    ['a signal gives signal and its name', valued({ signal: 'SIGKILL' }), F('signal', 'SIGKILL')],
    ['an empty signal does not count', valued({ signal: '' }), null],
    ['a timeout is checked before a signal', valued({ timedOut: true, timeoutMs: 9, signal: 'SIGTERM' }), F('timeout', '9ms')],
    ['a 4xx status gives http and the code', valued({ statusCode: 404 }), F('http', '404')],
    ['a 5xx status gives http and the code', valued({ statusCode: 503 }), F('http', '503')],
    ['a status below 400 is a success', valued({ statusCode: 399 }), null],
    ['a signal is checked before a status', valued({ signal: 'SIGINT', statusCode: 500 }), F('signal', 'SIGINT')],
    ['a sandbox denial gives sandbox and the mode', valued({ sandbox: { denied: true, mode: 'workspace-write' } }), F('sandbox', 'workspace-write')],
    ['a sandbox denial without a mode gives an empty detail', valued({ sandbox: { denied: true } }), F('sandbox')],
    ['a status is checked before a sandbox denial', valued({ statusCode: 500, sandbox: { denied: true, mode: 'm' } }), F('http', '500')],
    ['an aborted call is not a failure', valued({ exitCode: 0, aborted: true }), null],
    ['a result with no value and no error is not a failure', { content: [{ type: 'text', text: '[exit code: 1]' }] }, null],
  ];
  for (const [name, result, want] of rows) {
    test(name, () => {
      assert.deepEqual(classifyFailure(result, { shell: false }), want);
    });
  }

  test('a status code is definitive: a 200 shell result is a success whatever its text says', () => {
    assert.equal(classifyFailure(valued({ statusCode: 200 }, { content: [{ type: 'text', text: '[exit code: 1]\nHTTP Error 400' }] }), { shell: true }), null);
  });

  test('a background job is not read as text either', () => {
    assert.equal(classifyFailure(valued({ kind: 'background' }, { content: [{ type: 'text', text: '[exit code: 1]' }] }), { shell: true }), null);
  });

  test('a tool that is not a shell is never judged by its text', () => {
    for (const body of ['[exit code: 1]', 'Traceback (most recent call last):\nValueError: x', 'HTTP Error 404', 'curl: (6) x']) {
      assert.equal(classifyFailure(text(body), { shell: false }), null, body);
      assert.equal(classifyFailure(text(body)), null, body);
    }
  });

  test('odd results never throw', () => {
    for (const odd of [null, undefined, 0, 'text', [], { value: null }, { value: 'x' }, { isError: true, error: null }, { content: 'x' }, { content: [null, 5] }]) {
      assert.doesNotThrow(() => classifyFailure(odd, { shell: true }));
    }
  });
});

describe('the shell text fallback, in order (§4.1.1)', () => {
  const traceback = 'Traceback (most recent call last):\n  File "fetch.py", line 3, in <module>\n';
  const rows: Array<[string, string, Failure]> = [
    ['[exit code: N] gives exit', 'boom\n[exit code: 3]', F('exit', '3')],
    ['a negative exit marker gives exit', '[exit code: -9]', F('exit', '-9')],
    ['only the first exit marker is examined', 'x\n[exit code: 0]\n[exit code: 2]', null],
    ['(HTTP nnn) of 400 and above gives http', 'GET /x (HTTP 404)', F('http', '404')],
    ['(HTTP 302) is not a failure', 'moved (HTTP 302)', null],
    ['only the first (HTTP nnn) is examined', '(HTTP 200)\n(HTTP 500)', null],
    ['[timed out after Nms] gives timeout', '[timed out after 3000ms]', F('timeout', '3000ms')],
    ['[killed by signal: S] gives signal', '[killed by signal: SIGTERM]', F('signal', 'SIGTERM')],
    ['[sandbox: file access denied gives sandbox', '[sandbox: file access denied under read-only mode]', F('sandbox')],
    ['a traceback gives exception with the full dotted name of the last exception line', `${traceback}urllib.error.URLError: <urlopen error>`, F('exception', 'urllib.error.URLError')],
    ['a traceback names the last of several exception lines', `${traceback}ValueError: a\nDuring handling...\n${traceback}KeyError: 'b'`, F('exception', 'KeyError')],
    ['a traceback with no exception line gives an empty detail', `${traceback}  oops`, F('exception')],
    ['a line-anchored exception gives only the class name', 'SyntaxError: invalid syntax', F('exception', 'SyntaxError')],
    ['without a traceback a dotted exception loses its module prefix', 'urllib.error.HTTPError: HTTP Error 404: Not Found', F('exception', 'HTTPError')],
    ['an indented exception line still counts', '    json.decoder.JSONDecodeError: Expecting value', F('exception', 'JSONDecodeError')],
    ['a bare Error: is not an exception', 'Error: something went wrong', null],
    ['an exception name in the middle of prose is not an exception', 'the ValueError: handling is fine', null],
    ['HTTP Error nnn gives http for any code', 'HTTP Error 302: Found', F('http', '302')],
    ['curl: (n) gives curl and the number', 'curl: (6) Could not resolve host: x.invalid', F('curl', '6')],
    ['plain output is not a failure', 'all good', null],
    ['empty output is not a failure', '', null],
    ['an exit marker is checked before (HTTP nnn)', '(HTTP 404)\n[exit code: 1]', F('exit', '1')],
    ['(HTTP nnn) is checked before a timeout marker', '[timed out after 5ms] (HTTP 500)', F('http', '500')],
    ['a timeout marker is checked before a signal marker', '[killed by signal: KILL]\n[timed out after 5ms]', F('timeout', '5ms')],
    ['a signal marker is checked before a sandbox marker', '[sandbox: file access denied]\n[killed by signal: HUP]', F('signal', 'HUP')],
    ['a sandbox marker is checked before a traceback', `${traceback}OSError: x\n[sandbox: file access denied]`, F('sandbox')],
    ['HTTP Error nnn is checked before curl: (n)', 'curl: (22) x\nHTTP Error 404', F('http', '404')],
    ['a (HTTP 302) falls through to later checks', 'redirect (HTTP 302)\ncurl: (7) Failed to connect', F('curl', '7')],
  ];
  for (const [name, body, want] of rows) {
    test(name, () => {
      assert.deepEqual(classifyFailure(text(body), { shell: true }), want);
    });
  }

  test('text blocks are joined with newlines and non-text blocks read as empty', () => {
    const result = { isError: false, value: {}, content: [{ type: 'image', data: '…' }, { type: 'text', text: 'SyntaxError: bad' }] };
    assert.deepEqual(classifyFailure(result, { shell: true }), F('exception', 'SyntaxError'));
    const split = { isError: false, value: {}, content: [{ type: 'text', text: 'line one' }, { type: 'text', text: 'KeyError: k' }] };
    assert.deepEqual(classifyFailure(split, { shell: true }), F('exception', 'KeyError'));
  });
});

describe('describeFailure (§4.2)', () => {
  const carries: Array<[FailureReason, RegExp]> = [
    ['exit', /exit/i],
    ['http', /HTTP/],
    ['timeout', /time/i],
    ['signal', /signal|kill/i],
    ['sandbox', /sandbox/i],
    ['error', /error/i],
    ['exception', /exception|raise/i],
    ['curl', /curl/i],
  ];

  for (const [reason, pattern] of carries) {
    test(`a ${reason} failure is described with its reason and its detail`, () => {
      const detail = reason === 'timeout' ? '5000ms' : reason === 'exception' ? 'urllib.error.URLError' : 'D42';
      const described = describeFailure({ reason, detail });
      assert.match(described, pattern);
      assert.ok(described.includes(detail), described);
      assert.doesNotMatch(described, /\s{2}|\(\s|\s\)/);
    });

    test(`a ${reason} failure with an empty detail reads cleanly`, () => {
      const described = describeFailure({ reason, detail: '' });
      assert.match(described, pattern);
      assert.ok(described.trim().length > 0, 'the description is not blank');
      assert.doesNotMatch(described, /\s{2}|\(\s*\)|\(\s|\s\)|^\s|\s$/);
      assert.notEqual(described, describeFailure({ reason, detail: 'D42' }));
    });
  }

  test('an unknown reason still gives a sentence', () => {
    const described = describeFailure({ reason: 'mystery' as unknown as FailureReason, detail: '' });
    assert.ok(described.length > 0, 'an unknown reason is still described');
    assert.doesNotMatch(described, /\s{2}/);
  });

  test('no failure describes as the empty string', () => {
    assert.equal(describeFailure(null), '');
  });
});

describe('the text marks the generators draw from', () => {
  test('each exported mark gives its verdict, and together they reach every text reason', () => {
    const random = mulberry32(16);
    const reached = new Set<string>();
    for (const mark of TEXT_MARKS) {
      const verdicts = new Set<string>();
      for (let draw = 0; draw < 20; draw += 1) {
        const body = typeof mark === 'string' ? `${mark}SIGTERM]` : exampleOf(mark, random);
        const verdict = classifyFailure(text(body), { shell: true });
        if (verdict !== null) verdicts.add(verdict.reason);
      }
      assert.ok(verdicts.size > 0, `${String(mark)} gave no verdict in 20 draws`);
      for (const reason of verdicts) reached.add(reason);
    }
    assert.deepEqual([...reached].sort(), ['curl', 'exception', 'exit', 'http', 'sandbox', 'signal', 'timeout']);
  });
});
