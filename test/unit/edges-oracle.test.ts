/**
 * Hand-picked edges of the command readers and the failure classifier, each
 * read by the port and by the adjusted oracle, which must agree. Generated
 * texts rarely land exactly on a boundary (a name of five letters, a status of
 * exactly 400, a detail of exactly 200 characters, a line break other than
 * `\n`), so the mutation campaign found these unpinned; they are listed here.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extractSink, firstVerb, stripVolatileFlags, wordsStripped, wordsVerb } from '../../src/lib/shell/command.js';
import { tokenize } from '../../src/lib/shell/tokenize.js';
import { classifyFailure, type Failure } from '../../src/lib/result/failure.js';
import { describeFailure } from '../../src/lib/text/failure.js';
import { loadOracleModule } from '../parity/oracle.js';

interface OracleNormalize {
  firstVerb(command: string): string;
  stripVolatileFlags(command: string): string;
  extractSink(command: string): string | null;
}
interface OracleFailure {
  classifyFailure(result: unknown, options?: { shell?: boolean; command?: string }): Failure | null;
}
const normalize = await loadOracleModule<OracleNormalize>('lib/normalize.js');
const failures = await loadOracleModule<OracleFailure>('lib/failure.js');

const COMMANDS = [
  // Assignments: letters at both ends of the alphabet, digits, underscores, a name without `=`.
  'FOOz=1 curl x', 'zeta=1 curl x', 'Z=1 curl x', 'a1_=2 curl x', '_x=1 curl x', '1A=2 curl x', 'FOO curl x', 'A-B=1 curl x', 'ABC',
  // timeout durations: whole, fractional, units, malformed.
  'timeout 30 curl x', 'timeout 2.5 curl x', 'timeout 30s curl x', 'timeout 1m curl x', 'timeout 2h curl x', 'timeout 1d curl x',
  'timeout 2. curl x', 'timeout .5 curl x', 'timeout 2.5.1 curl x', 'timeout s curl x', 'timeout 1x curl x', 'timeout 1.5m curl x',
  'timeout 1.a curl x', 'timeout --foreground 9 curl x', 'timeout', 'timeout --kill-after=3', 'timeout 5',
  // Wrappers and their value options, stepping past the end.
  'sudo -u root curl x', 'sudo -u', 'nice -n 10 nohup wget y', 'env -i curl x', 'exec -a name curl x', 'command -v curl', 'sudo', 'time',
  // Glued and clustered volatile flags.
  '--max-time=60 curl x', 'curl --max-time=60 x', 'curl --silent=1 x', 'curl --=5 x', 'curl -m60 x', 'curl -mx x', 'curl -A1 x', 'curl -Ax x', 'curl -B1 x',
  'curl -m 5 x', 'curl -sSLfk x', 'curl -sv x', 'curl - x', 'curl -- x', 'ls -s -L',
  // Volatile letters and glued values only count after a dash.
  'echo ks fL x', 'echo xm5 yA1 z', 'echo -xm5 x',
  // Sinks: quotes, ./ runs, operators, tee.
  'curl -o "./out.json" x', "curl -o './a' x", 'curl -o ./ x', 'curl -o "" x', 'curl -o . x', 'curl -o ./././f x', 'curl -o "a x', 'curl -o a" x', 'curl -o "./" x', `curl -o '"./"' x`, `curl -o '"."' x`, "curl -o '.' x", 'curl -o \'"\' x',
  'echo x > ./f', 'echo x >> f', 'echo x >>> f', 'echo x > | y', 'echo x > ; y', 'echo x >', 'cmd | tee -a a b', 'cmd | tee a | b', 'cmd | tee', 'wget -O - u', 'wget -O out https://a', 'curl -O https://a/b',
];

test('the command readers agree with the oracle on the edges of assignments, durations, wrappers, flags and sinks', () => {
  for (const command of COMMANDS) {
    assert.equal(firstVerb(command), normalize.firstVerb(command), `firstVerb(${JSON.stringify(command)})`);
    assert.equal(stripVolatileFlags(command), normalize.stripVolatileFlags(command), `stripVolatileFlags(${JSON.stringify(command)})`);
    assert.equal(extractSink(command), normalize.extractSink(command), `extractSink(${JSON.stringify(command)})`);
  }
});

test('cmd: read with the command it was split from is cmd: read from the words alone, however the command is spaced or quoted', () => {
  const spellings = (command: string): string[] => [command, ` ${command}`, `${command} `, command.replaceAll(' ', '  '), command.replaceAll(' ', '\t'), command.replaceAll(' ', '\u00a0'), `'${command}'`, command.replaceAll(' ', '" "'), command.replaceAll(' ', '\\ ')];
  for (const command of [...COMMANDS, '', ' ', 'a', "''", 'a \\', 'echo a\\', '"a b" c']) {
    for (const spelled of spellings(command)) {
      const words = tokenize(spelled);
      const verb = wordsVerb(words);
      assert.equal(wordsStripped(words, verb, spelled), normalize.stripVolatileFlags(spelled), `wordsStripped(${JSON.stringify(spelled)})`);
      assert.equal(wordsStripped(words, verb, spelled), wordsStripped(words, verb), JSON.stringify(spelled));
    }
  }
});

test('the command readers take pre-split words as they take the command, and read nothing from words that are not all strings', () => {
  assert.equal(firstVerb(['sudo', '-u', 'root', 'curl', 'x']), 'curl');
  assert.equal(stripVolatileFlags(['curl', '-s', 'x']), 'curl x');
  assert.equal(extractSink(['curl', '-o', 'f', 'x']), 'f');
  const mixed = ['curl', 1, 'x'] as unknown as string[];
  assert.equal(firstVerb(mixed), '');
  assert.equal(stripVolatileFlags(mixed), '');
  assert.equal(extractSink(['-o', 2, 'f'] as unknown as string[]), null);
  // An array whose every member read throws reads as no words, not as an error.
  const hostile = new Proxy(['curl', 'x'], { get: (target, key) => (key === 'every' ? () => { throw new Error('no'); } : Reflect.get(target, key)) });
  assert.equal(firstVerb(hostile), '');
  assert.equal(stripVolatileFlags(hostile), '');
});

const TEXTS = [
  // Exception names at the length boundaries: `Error` and `Exception` alone are not classes.
  'Error: x', 'AError: x', 'Exception: x', 'AException: x', '_Error: x', '9Error: x', 'a.Error: x', 'a.BError: x', '.BError: x', 'a..BError: x', '1.BError: x',
  'mod.sub.KeyError: k', 'KeyError:x', 'KeyError : x', ' \tKeyError: x', '  ValueError: y', 'x ValueError: y', 'ValueErrors: y',
  // Lines split by every line break, the scan moving past each.
  'ok\rKeyError: a', 'ok\u2028KeyError: a', 'ok\u2029KeyError: a', 'ok\r\nKeyError: a', 'ok\n\nKeyError: a\nTypeError: b', 'KeyError: a\nTypeError: b',
  'Traceback (most recent call last):\n  File "x"\nmod.KeyError: a\nTypeError: b', 'Traceback (most recent call last):\nnothing', 'Traceback (most recent call last):\nError: a',
  'Exception: x\nAException: y', 'line Error: x',
  // A name is an exception only before `: ` exactly.
  'KeyError; x\nline Error: y', 'KeyError:x\nline Error: y', 'KeyError :x\nline Error: y', ': x\nline Error: y', '; KeyError: x',
  // Status, exit, timeout and signal markers at their edges.
  '(HTTP 400)', '(HTTP 399)', '(HTTP 401)', '[exit code: 0]', '[exit code: -1]', '[exit code: 0] (HTTP 500)', '[timed out after 5ms]',
  '[killed by signal: ]', '[killed by signal: ] [killed by signal: KILL]', '[killed by signal: TERM', '[killed by signal: HUP]',
  '[sandbox: file access denied', 'HTTP Error 404', 'HTTP Error 200', 'curl: (6) could not resolve', 'curl: (x)',
];

test('the shell text fallback agrees with the oracle on exception names, line breaks and markers at their edges', () => {
  for (const text of TEXTS) {
    for (const command of [undefined, "curl -w '%{http_code}' u"]) {
      const result = { isError: false, value: { kind: 'foreground', exitCode: 0 }, content: [{ type: 'text', text }] };
      const options = command === undefined ? { shell: true } : { shell: true, command };
      assert.deepEqual(classifyFailure(result, options), failures.classifyFailure(result, options), JSON.stringify(text));
    }
  }
});

test('structured results agree with the oracle at the edges: status 400, a timeout without its length, a sandbox without a mode, a 200-character detail', () => {
  const results: unknown[] = [
    { isError: false, value: { statusCode: 400 } },
    { isError: false, value: { statusCode: 399 } },
    { isError: false, value: { statusCode: 401 } },
    { isError: false, value: { timedOut: true } },
    { isError: false, value: { timedOut: true, timeoutMs: 0 } },
    { isError: false, value: { timedOut: true, timeoutMs: 1500 } },
    { isError: false, value: { signal: '' } },
    { isError: false, value: { sandbox: { denied: true } } },
    { isError: false, value: { sandbox: { denied: true, mode: 'read-only' } } },
    { isError: false, value: { kind: 'background', exitCode: 1 } },
    { isError: true, error: { code: 'E'.repeat(200) } },
    { isError: true, error: { info: { name: 'Boom' } } },
    { isError: true, error: { code: 7 } },
    { isError: false, content: [{ type: 'image' }, { type: 'text', text: '[exit code: 2]' }] },
    { isError: false, value: null, content: [{ type: 'text', text: '[exit code: 2]' }] },
  ];
  for (const result of results) {
    for (const shell of [false, true]) {
      const ours = classifyFailure(result, { shell });
      assert.deepEqual(ours, failures.classifyFailure(result, { shell }), JSON.stringify(result));
      // The descriptions are ours (worded for the model), so they are checked for what they carry.
      if (ours !== null && ours.detail !== '') assert.ok(describeFailure(ours).includes(ours.detail), describeFailure(ours));
    }
  }
});

test('a block without text adds an empty line, so a status on the next block still leads the output (P1)', () => {
  const result = { isError: false, value: { exitCode: 0 }, content: [{ type: 'image' }, { type: 'text', text: '404 Not Found' }] };
  const options = { shell: true, command: "curl -s -w '%{http_code}' https://a.test/x" };
  assert.deepEqual(classifyFailure(result, options), { reason: 'http', detail: '404' });
  assert.deepEqual(classifyFailure(result, options), failures.classifyFailure(result, options));
});

test('a block whose text is not a string carries no evidence, however it would print', () => {
  for (const text of [['[exit code: 2]'], { toString: () => '[exit code: 2]' }, 404]) {
    const result = { isError: false, value: { exitCode: 0 }, content: [{ type: 'text', text }] };
    const options = { shell: true, command: "curl -s -w '%{http_code}' https://a.test/x" };
    assert.equal(classifyFailure(result, options), null, String(text));
    assert.deepEqual(classifyFailure(result, options), failures.classifyFailure(result, options), String(text));
  }
});

test('content that is not an array is read as no text, and content that cannot be read is no verdict', () => {
  const evidence = { type: 'text', text: '[exit code: 2]' };
  assert.equal(classifyFailure({ isError: false, content: new Set([evidence]) }, { shell: true }), null);
  assert.equal(classifyFailure({ isError: false, content: { 0: evidence, length: 1 } }, { shell: true }), null);
  const unreadable = new Proxy([evidence], {
    get: (target, key) => (key === Symbol.iterator ? () => { throw new Error('no'); } : Reflect.get(target, key)),
  });
  assert.equal(classifyFailure({ isError: false, content: unreadable }, { shell: true }), null);
});

test('a detail is quoted whole up to 200 characters and cut with a mark after (P5; 0.5.2 kept it all)', () => {
  assert.deepEqual(classifyFailure({ isError: true, error: { code: 'E'.repeat(200) } }), { reason: 'error', detail: 'E'.repeat(200) });
  assert.deepEqual(classifyFailure({ isError: true, error: { code: 'E'.repeat(201) } }), { reason: 'error', detail: `${'E'.repeat(200)}…` });
});

test('a failure description folds every run of whitespace in the detail into one space', () => {
  const failure: Failure = { reason: 'exception', detail: '  Key\n\tError  ' };
  assert.equal(describeFailure(failure), 'the script died with an uncaught exception (Key Error)');
});
