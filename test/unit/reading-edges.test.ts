/**
 * Edges of reading a call that no generator reaches, each found by a mutant
 * that survived the campaign over read/ (docs/mutation.md): the words the
 * tokenizer builds from many runs, a lone backslash at the end, the cap on
 * URLs per command, `cmd:` without a verb or without anything left, the
 * dialect `act:` reads bash in, `isMeasured` over raw tables, and the form of
 * a long fingerprint's identity key (P6).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveConfig } from '../../src/lib/config/config.js';
import { fingerprints, isMeasured, URL_LIMIT } from '../../src/lib/call/fingerprint.js';
import { identityKey, KEY_TEXT_LIMIT } from '../../src/lib/call/identity.js';
import { tokenize } from '../../src/lib/shell/tokenize.js';

const refBase = new URL('../../node_modules/reference-breaker/lib/', import.meta.url);
const ref = (await import(new URL('normalize.js', refBase).href)) as { tokenize(command: string): string[] };

const fpsOf = (command: string, config: unknown = {}): string[] => fingerprints({ name: 'bash', args: { command } }, resolveConfig(config)).fps;

test('the tokenizer keeps a lone backslash at the end, quoted or not, and reads a non-string as no words', () => {
  for (const [command, words] of [
    ['abc\\', ['abc\\']],
    ['"abc\\', ['abc\\']],
    ["'abc\\", ['abc\\']],
    ["''", ['']],
    ['a""b \'\'', ['ab', '']],
  ] as const) {
    assert.deepEqual(tokenize(command), words, command);
    assert.deepEqual(tokenize(command), ref.tokenize(command), command);
  }
  assert.deepEqual(tokenize(null as never), []);
  assert.deepEqual(tokenize(42 as never), []);
});

test('a word of thousands of runs is copied out whole: escapes, a run longer than the buffer twice over, past one fromCharCode slice', () => {
  const escapes = `${'\\x'.repeat(2_000)} tail`;
  assert.deepEqual(tokenize(escapes), ['x'.repeat(2_000), 'tail']);
  // 40 one-character runs spill the word; then one run of 10,000 must grow the buffer past double its size.
  const long = `${'\\a'.repeat(40)}${'b'.repeat(10_000)}"${'c'.repeat(5_000)}"`;
  const words = tokenize(long);
  assert.deepEqual(words, [`${'a'.repeat(40)}${'b'.repeat(10_000)}${'c'.repeat(5_000)}`]);
  assert.deepEqual(words, ref.tokenize(long));
});

test(`a command names at most ${URL_LIMIT} URLs' targets; the rest are still in exact: and cmd:`, () => {
  const urls = Array.from({ length: URL_LIMIT + 6 }, (_, i) => `https://h${i}.example.com/p`);
  const fps = fpsOf(`curl ${urls.join(' ')}`);
  assert.equal(fps.filter((fp) => fp.startsWith('net:')).length, URL_LIMIT);
  assert.ok(fps.includes(`net:h${URL_LIMIT - 1}.example.com/p`), 'the last URL within the limit gets net:');
  assert.ok(!fps.includes(`net:h${URL_LIMIT}.example.com/p`), 'a URL past the limit gets no net:');
  assert.ok(
    fps.some((fp) => fp.startsWith('cmd:curl:') && fp.endsWith(`h${URL_LIMIT + 5}.example.com/p`)),
    'the URLs past the limit are still in cmd:',
  );
});

test('cmd: needs a verb and something left once the volatile flags go', () => {
  // `sudo -u` leaves no verb (the option eats the end); `FOO=1` is an assignment and nothing else.
  for (const command of ['sudo -u', 'FOO=1']) {
    assert.deepEqual(fpsOf(command).filter((fp) => fp.startsWith('cmd:')), [], command);
  }
  // P9: a lone `-s` is its own command, not curl's, so its flag stays and cmd: has something left.
  assert.ok(fpsOf('-s').includes('verb:-s'), 'a lone -s is still a verb');
  assert.ok(fpsOf('-s').includes('cmd:-s:-s'), fpsOf('-s').join(' | '));
});

test('act: reads bash, shell and the rest in the POSIX dialect, where leading assignments are part of the command', () => {
  const fps = fpsOf('FOO=1 make test', { limits: { act: 5 } });
  assert.ok(fps.includes('act:FOO=1 make test'), fps.join(' | '));
});

test('isMeasured: a measure is on when its own cap or a full key of it is set, over any table', () => {
  assert.equal(isMeasured('act', {}), false);
  assert.equal(isMeasured('act', { act: null }), false);
  assert.equal(isMeasured('act', { act: 3 }), true);
  assert.equal(isMeasured('act', { 'act:make test': 2 }), true);
  assert.equal(isMeasured('act', { 'act:make test': null }), false);
  assert.equal(isMeasured('act', { 'act:make test': undefined } as never), false);
  assert.equal(isMeasured('act', { actor: 3 }), false);
});

test('identity keys: a fingerprint up to the limit is its own key; a longer one is a head, a SHA-256 of its UTF-16 and its length', () => {
  const limit = `exact:bash:${'a'.repeat(KEY_TEXT_LIMIT - 11)}`;
  assert.equal(limit.length, KEY_TEXT_LIMIT);
  assert.equal(identityKey(limit), limit);
  const over = `${limit}b`;
  assert.match(identityKey(over), new RegExp(`^${over.slice(0, 64)}\\u0000[A-Za-z0-9_-]{43}/${KEY_TEXT_LIMIT + 1}$`));
  // UTF-16, not UTF-8: texts that differ only in a lone surrogate stay two keys.
  assert.notEqual(identityKey(`${over}\ud800`), identityKey(`${over}\udc00`));
});
