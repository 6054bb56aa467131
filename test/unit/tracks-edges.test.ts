/**
 * The tracks' edges the track suites pass over: the duplicated-context
 * track's text helpers and its bookkeeping at each boundary (normalising
 * against a plain specification, the preview and label cuts, the notice's
 * wording, the window, the cap on occurrences, message ids, odd message
 * shapes), the cycle key and sequence book, the failure track's words, the
 * table of ask headings, and the readings a track keeps on a call.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createBreaker } from '../../src/lib/breaker/breaker.js';
import { resolveConfig, type DuplicateTextConfig } from '../../src/lib/config/config.js';
import { DUPLICATE_TEXT_DEFAULTS } from '../../src/lib/tracks/duplicate-text.meta.js';
import { identityKey } from '../../src/lib/call/identity.js';
import { createSequenceBook, cycleKey } from '../../src/lib/memory/cycles.js';
import {
  createDuplicateText,
  duplicateMessage,
  duplicateSummary,
  normalizeText,
  previewText,
  sourceLabel,
  trimOldest,
  type Duplicate,
} from '../../src/lib/tracks/duplicate-text.js';
import { failWarnMessage } from '../../src/lib/tracks/failure.js';
import { CALL_TRACKS } from '../../src/lib/tracks/index.js';
import { readOf, slot, type TrackedCall } from '../../src/lib/tracks/track.js';
import { gateLine } from '../../src/lib/text/log-line.js';
import { mulberry32 as random } from '../support/prng.js';

/** The specification: lines split at CRLF, CR or LF, spaces and tabs cut from each line's end, trailing empty lines dropped. */
function spec(text: string): string {
  const lines = text.split(/\r\n|\r|\n/).map((line) => line.replace(/[ \t]+$/, ''));
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.join('\n');
}

describe('duplicated context: the text helpers', () => {
  test('normalising agrees with the plain specification (20,000 texts of letters, spaces, tabs and line ends)', () => {
    const next = random(7);
    const pieces = ['a', 'b', ' ', '\t', '\n', '\r', '\r\n', '  \n'];
    for (let i = 0; i < 20_000; i += 1) {
      let text = '';
      const length = Math.floor(next() * 9);
      for (let j = 0; j < length; j += 1) text += pieces[Math.floor(next() * pieces.length)];
      assert.equal(normalizeText(text), spec(text), JSON.stringify(text));
    }
  });

  test('examples: a lone LF, space or tab at the end goes; a CR in second place is a line end', () => {
    assert.equal(normalizeText('x\n'), 'x');
    assert.equal(normalizeText('x '), 'x');
    assert.equal(normalizeText('x\t'), 'x');
    assert.equal(normalizeText('a\rb'), 'a\nb');
    assert.equal(normalizeText('clean text'), 'clean text');
  });

  test('the preview is the head on one line, cut at 80 characters with an ellipsis', () => {
    assert.equal(previewText('a  b\n\tc'), 'a b c');
    assert.equal(previewText('x'.repeat(80)), 'x'.repeat(80));
    assert.equal(previewText('x'.repeat(81)), `${'x'.repeat(80)}\u2026`);
    assert.equal(previewText(`${' '.repeat(150)}abc${'d'.repeat(20)}`), `abc${'d'.repeat(7)}\u2026`, 'only the first 160 characters are read, and the rest is marked');
    assert.equal(previewText(`${' '.repeat(150)}abcdefghij`), 'abcdefghij', 'a text of exactly 160 characters is read whole');
  });

  test('a source label is its kind, then the plugin, else the name; empty parts are absent', () => {
    assert.equal(sourceLabel({ source: { kind: '' } }), 'unknown');
    assert.equal(sourceLabel({ source: { kind: 'plugin', plugin: '', name: 'relay' } }), 'plugin:relay');
    assert.equal(sourceLabel({ source: { kind: 'plugin', plugin: 'echo', name: 'relay' } }), 'plugin:echo');
    assert.equal(sourceLabel({ source: { kind: 'user', name: '' } }), 'user');
    const sixty = `user:${'n'.repeat(55)}`;
    assert.equal(sourceLabel({ source: { kind: 'user', name: 'n'.repeat(55) } }), sixty);
    assert.equal(sourceLabel({ source: { kind: 'user', name: 'n'.repeat(56) } }), `${sixty.slice(0, 59)}\u2026`);
  });

  test('the notice names one text in the singular, counts in words, and an odd window in milliseconds', () => {
    const one: Duplicate = { preview: 'x', length: 1, count: 2, messages: 1, sources: [['user', 2]] };
    assert.equal(
      duplicateMessage([one], 1500),
      [
        'DUPLICATED_CONTEXT: a text has entered this conversation repeatedly within 1500 ms. Nothing was removed or blocked.',
        '- "x" (1 character): 2 times in 1 message, from user \u00d72',
        'The copies are identical: use the one already in your context instead of reading it as new information, and do not fetch or request it again.',
      ].join('\n'),
    );
    const three = duplicateMessage([one, one, one], 2000);
    assert.match(three, /^DUPLICATED_CONTEXT: 3 texts have entered this conversation repeatedly within 2 s\./);
    assert.doesNotMatch(three, /- and/);
    assert.match(duplicateMessage([one, one, one, one], 2000), /\n- and 1 more\n/);
  });

  test('the summary: the first text with its count, and how many more', () => {
    const first: Duplicate = { preview: 'notes', length: 900, count: 3, messages: 3, sources: [] };
    assert.equal(duplicateSummary([]), 'duplicated context');
    assert.equal(duplicateSummary([first]), 'duplicated context \u00d7 3: \u201cnotes\u201d');
    assert.equal(duplicateSummary([first, first]), 'duplicated context \u00d7 3 (+1): \u201cnotes\u201d');
  });

  test('a book at its limit is kept whole; past it, it loses its oldest eighth', () => {
    const book = new Set(Array.from({ length: 16 }, (_, i) => `k${i}`));
    trimOldest(book, 16);
    assert.equal(book.size, 16);
    book.add('k16');
    trimOldest(book, 16);
    assert.deepEqual([...book], Array.from({ length: 14 }, (_, i) => `k${i + 3}`));
  });
});

const ON: DuplicateTextConfig = { ...DUPLICATE_TEXT_DEFAULTS, minChars: 5, threshold: 2, windowMs: 1000, cooldownMs: 0 };

/** The track on a clock the test moves; `step` returns the notices appended to one step. */
function rig(cfg: Partial<DuplicateTextConfig> = {}) {
  let clock = 0;
  const track = createDuplicateText({ ...ON, ...cfg }, () => clock);
  const agent = {};
  return {
    track,
    at(ms: number) {
      clock = ms;
    },
    step(messages: unknown[]): unknown[] {
      const decision = track.review({ agent, messages }, { kind: 'enter', messages }) as { messages: unknown[] };
      return decision.messages.slice(messages.length);
    },
  };
}

let serial = 0;
const said = (content: unknown, source: object = { kind: 'user' }, id: unknown = `s-${(serial += 1)}`) => ({ id, content, source });
const block = (text: unknown, type = 'text') => [{ type, text }];
const noticeText = (notices: unknown[]): string => (notices[0] as { content: { text: string }[] }).content[0]?.text ?? '';

describe('duplicated context: the book at its boundaries', () => {
  test('a text of exactly minChars counts; one that normalises below it does not', () => {
    const r = rig();
    assert.equal(r.step([said(block('abcde')), said(block('abcde'))]).length, 1);
    assert.equal(r.step([said(block('wxyz ')), said(block('wxyz '))]).length, 0);
  });

  test('an occurrence exactly windowMs ago is outside the window', () => {
    const r = rig();
    r.at(0);
    r.step([said(block('hello'))]);
    r.at(1000);
    assert.equal(r.step([said(block('hello'))]).length, 0);
    r.at(1999);
    assert.equal(r.step([said(block('hello'))]).length, 1);
  });

  test('a notice counts the last `threshold` occurrences, however many came during its cooldown', () => {
    const r = rig({ cooldownMs: 10, windowMs: 100_000 });
    r.at(0);
    r.step([said(block('hello'))]);
    r.at(1);
    assert.equal(r.step([said(block('hello'))]).length, 1);
    for (const at of [2, 3, 4]) {
      r.at(at);
      assert.equal(r.step([said(block('hello'))]).length, 0, 'silent');
    }
    r.at(20);
    assert.match(noticeText(r.step([said(block('hello'))])), /: 2 times in 2 messages/);
  });

  test('sources are listed most frequent first, whichever came first', () => {
    const r = rig({ threshold: 3 });
    const notices = r.step([said(block('hello'), { kind: 'user' }), said(block('hello'), { kind: 'plugin', plugin: 'echo' }), said(block('hello'), { kind: 'plugin', plugin: 'echo' })]);
    assert.match(noticeText(notices), /from plugin:echo \u00d72, user \u00d71/);
  });

  test('a string content is one text; a non-text block, a non-string text and a content that is no list are none', () => {
    const r = rig({ minChars: 1 });
    assert.equal(r.step([said('hello'), said('hello')]).length, 1);
    assert.equal(r.step([said(block('image words', 'image')), said(block('image words', 'image'))]).length, 0);
    assert.doesNotThrow(() => r.step([said(block(42)), said(42), said({ text: 'x' })]));
    assert.equal(r.step([said(42), said({ text: 'x' }), said(null)]).length, 0, 'content that is no list adds no text');
    assert.equal(r.step([said([]), said([{ type: 'image' }])]).length, 0, 'a message with no text adds none');
  });

  test('only a plugin-kind message of this plugin is its own; a user message naming it counts', () => {
    const r = rig();
    const posing = { kind: 'user', plugin: 'repeat-tool-breaker' };
    assert.equal(r.step([said(block('hello'), posing), said(block('hello'), posing)]).length, 1);
  });

  test('message ids: a numeric id is no id, and long ids are told apart', () => {
    const r = rig();
    assert.equal(r.step([said(block('hello'), { kind: 'user' }, 1), said(block('hello'), { kind: 'user' }, 1)]).length, 1);
    const long = (c: string) => c.repeat(200);
    assert.equal(r.step([said(block('world'), { kind: 'user' }, long('a')), said(block('world'), { kind: 'user' }, long('b'))]).length, 1);
    assert.equal(r.step([said(block('again'), { kind: 'user' }, long('a')), said(block('again'), { kind: 'user' }, long('c'))]).length, 0, 'a replayed long id');
  });

  test('a step that is not entered counts nothing', () => {
    const r = rig();
    const skip = { kind: 'skip' };
    assert.equal(r.track.review({ agent: {}, messages: [said(block('hello'))] }, skip), skip);
    const agent = {};
    assert.equal(r.track.review({ agent, messages: [said(block('hello'))] }, skip), skip);
    const messages = [said(block('hello'))];
    const decision = r.track.review({ agent, messages }, { kind: 'enter', messages }) as { messages: unknown[] };
    assert.equal(decision.messages.length, 1, 'the skipped claim was not counted');
  });

  test('a payload without an object agent or a message list, or a decision without messages, passes untouched', () => {
    const r = rig();
    const messages = [said(block('hello')), said(block('hello'))];
    const enter = { kind: 'enter', messages };
    for (const payload of [{ agent: null, messages }, { agent: 'main', messages }, { agent: {}, messages: 'none' }]) {
      assert.equal(r.track.review(payload, enter), enter);
    }
    const bare = { kind: 'enter' };
    assert.equal(r.track.review({ agent: {}, messages }, bare), bare);
  });
});

describe('cycles and the sequence book', () => {
  test('a cycle key starts at the first smallest identity: every rotation is one key', () => {
    assert.equal(cycleKey(['b', 'a', 'c']), identityKey('seq:["a","c","b"]'));
    assert.equal(cycleKey(['c', 'b', 'a']), cycleKey(['a', 'c', 'b']));
    assert.equal(cycleKey(['b', 'a', 'a']), identityKey('seq:["a","a","b"]'));
  });

  test('an agent the book never saw has no steps', () => {
    const book = createSequenceBook(16);
    assert.equal(book.step({}, 0), undefined);
    assert.deepEqual(book.keys({}), []);
  });
});

describe('the failure track\u2019s words and the tracks in the log', () => {
  test('the failure advisory says why re-running will not help', () => {
    assert.match(failWarnMessage('exact:bash:{"command":"make"}', 3, null), /has failed 3 times in a row \(.*\)\. Running it again will not change that\. Read the error/);
  });

  test('a measure whose cap is null keeps no failure streak, so its failures never meet the gate', () => {
    const limits = { exact: null, cmd: null, net: null, sink: null, host: null };
    const breaker = createBreaker(resolveConfig({ onLimit: 'deny', failLimit: 2, limits }));
    const agent = {};
    const failed = { isError: false, value: { exitCode: 1 }, content: [{ type: 'text', text: 'No such file or directory\n[exit code: 1]' }] };
    for (let i = 0; i < 5; i += 1) {
      const exec = { name: 'bash', arguments: { command: 'cat missing.txt' }, agent };
      assert.equal(breaker.guard(exec), undefined, `call ${i + 1}`);
      breaker.settle(exec, failed);
    }
  });

  test('each track names its hits in a gate line of the log, by its name (the approval panel names none)', () => {
    assert.deepEqual(
      CALL_TRACKS.map(({ words }) => gateLine('denied', 'bash', [{ words, quote: 'cmd:make:make', count: 4, cap: 4 }])),
      ['failure', 'repeat', 'sequence', 'stale', 'edit-retry', 'timeout', 'spin', 'guess', 'environment'].map(
        // A cycle's quote carries no measure: its track's name is its measure, said once.
        (track) => `gate, denied: bash, ${track}: ${track === 'sequence' ? '' : 'cmd '}\u201c${track === 'sequence' ? 'cmd:' : ''}make:make\u201d 4/4`,
      ),
    );
  });
});

describe('what the tracks read of a call, kept on it (track.ts readOf)', () => {
  const call = (): TrackedCall => ({ kept: [] }) as unknown as TrackedCall;

  test('a reading is made on first use and handed back after, null included; each slot holds its own, per call', () => {
    const words = slot<readonly string[] | null>();
    const programs = slot<readonly string[]>();
    let made = 0;
    const a = call();
    const first = readOf(a, programs, () => ((made += 1), ['make']));
    assert.equal(readOf(a, programs, () => ((made += 1), ['other'])), first);
    assert.equal(made, 1);
    assert.equal(readOf(a, words, () => ((made += 1), null)), null);
    assert.equal(readOf(a, words, () => ((made += 1), ['x'])), null, 'a null reading is kept, not made again');
    assert.equal(made, 2);
    const b = call();
    assert.deepEqual(readOf(b, programs, () => ['pytest']), ['pytest'], 'another call reads afresh');
    assert.notEqual(words.at, programs.at);
  });
});
