/**
 * The one digest of a result (result/digest.ts), below the tracks that compare
 * digests: how two values are written, which trailing characters are blank,
 * which lines take the noise reader and which are hashed where they stand,
 * and the exit status parts as the outcome spells them.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { linesDigest, outcomeDigest, resultDigest, written } from '../../src/lib/result/digest.js';
import { NOISE_LINE_LIMIT } from '../../src/lib/result/noise.js';
import { mulberry32 } from '../support/prng.js';

/** The two values `written` wrote, read back by the layout it documents: six bits a character from `0`, `a` first. */
function readBack(text: string): [number, number] {
  const bits = [...text].map((char) => char.charCodeAt(0) - 0x30);
  let a = 0;
  for (let at = 0; at < 5; at += 1) a += (bits[at] as number) * 2 ** (6 * at);
  const middle = bits[5] as number;
  a += (middle & 0x3) * 2 ** 30;
  let b = middle >> 2;
  for (let at = 6; at < 11; at += 1) b += (bits[at] as number) * 2 ** (4 + 6 * (at - 6));
  return [a, b];
}

describe('written: two 32-bit values as eleven one-byte characters', () => {
  test('each value is written whole: read back, every pair gives itself', () => {
    const random = mulberry32(40);
    const pairs: [number, number][] = [[0, 0], [0xffffffff, 0xffffffff], [0xffffffff, 0], [0, 0xffffffff], [1, 2 ** 31]];
    for (let at = 0; at < 5000; at += 1) pairs.push([Math.floor(random() * 2 ** 32), Math.floor(random() * 2 ** 32)]);
    for (const [a, b] of pairs) assert.deepEqual(readBack(written(a, b)), [a, b], `${a}, ${b}`);
  });

  test('in the characters from 0 to o: never a newline (the books separate digests by one) or a |', () => {
    const random = mulberry32(41);
    for (let at = 0; at < 2000; at += 1) {
      const text = written(Math.floor(random() * 2 ** 32), Math.floor(random() * 2 ** 32));
      assert.equal(text.length, 11);
      assert.match(text, /^[0-o]{11}$/);
    }
    assert.equal(written(0xffffffff, 0xffffffff), 'oooooooooo?', 'the last character holds four bits');
  });
});

describe('linesDigest: trailing blanks are what trimEnd drops', () => {
  test('every UTF-16 code unit after a word: the same digest as the word alone exactly when trimEnd drops it', () => {
    const alone = linesDigest('word');
    for (let code = 0; code <= 0xffff; code += 1) {
      // A newline splits the text; a carriage return and a spinner glyph are the noise reader's (below).
      if (code === 0x0a || code === 0x0d || (code >= 0x2800 && code <= 0x28ff)) continue;
      const text = `word${String.fromCharCode(code)}`;
      assert.equal(linesDigest(text) === alone, text.trimEnd() === 'word', `U+${code.toString(16)}`);
    }
  });

  test('blanks before the end stay: a word with a space inside is another line', () => {
    assert.notEqual(linesDigest('a b'), linesDigest('ab'));
    assert.equal(linesDigest(' \t'), linesDigest(''), 'a line of blanks is an empty line');
    assert.notEqual(linesDigest(' \tx'), linesDigest('x'), 'leading blanks stay');
  });
});

describe('linesDigest: which lines the noise reader reads', () => {
  const clock = (time: string, length: number) => `done at ${time} `.padEnd(length, '.');

  test('a line up to the meter length with a digit: its clock masked, on the first line and on a later one', () => {
    for (const length of [40, NOISE_LINE_LIMIT]) {
      assert.equal(linesDigest(clock('12:34:56', length)), linesDigest(clock('09:10:11', length)), `${length} characters`);
      assert.equal(linesDigest(`head\n${clock('12:34:56', length)}`), linesDigest(`head\n${clock('09:10:11', length)}`), `second line, ${length}`);
    }
  });

  test('a longer line is read for noise only when a digit opens it: the shell counter, on the first line or a later one', () => {
    const long = (line: number) => `bash: line ${line}: foo: command not found ${'x'.repeat(NOISE_LINE_LIMIT + 100)}`;
    assert.equal(linesDigest(long(12)), linesDigest(long(40)));
    // The counter's only digits at either end of the range: 9, and 0.
    assert.equal(linesDigest(long(9)), linesDigest(long(99)));
    assert.equal(linesDigest(long(0)), linesDigest(long(300)));
    assert.equal(linesDigest(`head\n${long(12)}`), linesDigest(`head\n${long(40)}`), 'on a later line');
    // The noise reader masks no clock in a line past the meter length: the shell counter at its start is all.
    assert.notEqual(linesDigest(clock('12:34:56', NOISE_LINE_LIMIT + 1)), linesDigest(clock('09:10:11', NOISE_LINE_LIMIT + 1)));
  });

  test('a line whose only digits are 9s or 0s is read as a meter', () => {
    assert.equal(linesDigest('done in 9s'), linesDigest('done in 99s'));
    assert.equal(linesDigest('done in 0s'), linesDigest('done in 5s'));
  });

  test('a meter row (curl\'s) is no line at all', () => {
    const row = '100 12.3M  100 12.3M    0     0  4213k      0  0:00:02  0:00:02 --:--:-- 4213k';
    assert.equal(linesDigest(`a\n${row}\nb`), linesDigest('a\nb'));
  });

  test('a carriage return shows the last state, with or without a digit; a spinner glyph at either end of its block is masked', () => {
    assert.equal(linesDigest('progress 10%\rdone'), linesDigest('done'));
    assert.equal(linesDigest('waiting...\rdone'), linesDigest('done'));
    assert.equal(linesDigest('a\nprogress 10%\rdone'), linesDigest('a\ndone'));
    assert.equal(linesDigest('\u2800 Installing'), linesDigest('\u28ff Installing'));
    assert.equal(linesDigest('\u280b Installing'), linesDigest('\u2819 Installing'));
    assert.notEqual(linesDigest('\u27ff Installing'), linesDigest('\u2800 Installing'), 'the glyph before the block is text');
    assert.notEqual(linesDigest('\u2900 Installing'), linesDigest('\u28ff Installing'), 'the glyph after the block is text');
  });

  test('digits outside a meter are read as they are: another number is another line', () => {
    assert.notEqual(linesDigest('exit 1'), linesDigest('exit 2'));
    assert.notEqual(linesDigest('/ 1'), linesDigest('/ :'), 'the characters either side of the digits are no digits');
  });
});

describe('outcomeDigest: the exit status parts', () => {
  const status = (value: unknown) => (outcomeDigest({ value, content: [{ type: 'text', text: 'x' }] }) as string).split('|')[1];

  test('the common values from the table, spelled as any other', () => {
    assert.equal(status({}), '-/-/-');
    assert.equal(status({ exitCode: 0 }), '0/-/-');
    assert.equal(status({ exitCode: 1 }), '1/-/-');
    assert.equal(status({ exitCode: 255 }), '255/-/-');
    assert.equal(status({ exitCode: 124, timedOut: true }), '124/t/-');
    assert.equal(status({ timedOut: true }), '-/t/-');
  });

  test('the others written out: out of range, not whole, a signal (its first 32 characters, quoted)', () => {
    assert.equal(status({ exitCode: 256 }), '256/-/-');
    assert.equal(status({ exitCode: -1 }), '-1/-/-');
    assert.equal(status({ exitCode: 1.5 }), '1.5/-/-');
    assert.equal(status({ exitCode: 137, signal: 'SIGKILL' }), '137/-/"SIGKILL"');
    assert.equal(status({ timedOut: true, signal: 'SIGTERM' }), '-/t/"SIGTERM"');
    assert.equal(status({ signal: 'S'.repeat(40) }), `-/-/"${'S'.repeat(32)}"`);
    assert.equal(status({ exitCode: '1', timedOut: 'yes', signal: 9 }), '-/-/-', 'fields of another type are absent');
  });

  test('a result with no text reads as one empty text', () => {
    assert.equal(outcomeDigest({ content: [] }), outcomeDigest({ content: [{ type: 'text', text: '' }] }));
    assert.notEqual(outcomeDigest({ content: [] }), outcomeDigest({ content: [{ type: 'text', text: 'x' }] }));
  });

  test('the error flag tells an error from a success, under both notions', () => {
    const content = [{ type: 'text', text: 'x' }];
    assert.notEqual(outcomeDigest({ isError: true, content }), outcomeDigest({ isError: false, content }));
    assert.notEqual(resultDigest({ isError: true, content }, 'bash', {}), resultDigest({ isError: false, content }, 'bash', {}));
  });
});
