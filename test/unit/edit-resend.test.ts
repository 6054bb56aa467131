/**
 * The edit-retry track's gates on one edit sent again, through the fake host:
 * `applied` (the same edit, the same block of text into the same file, sent
 * after it already landed that many times) and `resent` (the same edit sent
 * after it was rejected that many times, the file neither taking an edit nor
 * read in between); and the book they count by (tracks/edits.ts).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { bash, bashResult, deniedAt, newHost, noticedAt, noticeTexts, shown, summaries, textResult, type Call, type CallOutcome } from '../support/session.js';
import type { FakeHost } from '../support/fake-host.js';
import { createEditBook, editTextOf } from '../../src/lib/tracks/edits.js';
import { landedWords, resentWords } from '../../src/lib/tracks/edit-resend.js';
import type { TrackedCall } from '../../src/lib/tracks/track.js';

async function run(host: FakeHost, agent: object, calls: readonly Call[]): Promise<CallOutcome[]> {
  const out: CallOutcome[] = [];
  for (const call of calls) out.push(await host.call({ agent, ...call }));
  return out;
}

const FILE = '/repo/pkg/folds.py';
const BLOCK = 'def __init__(self, n=5):\n        super().__init__(Folds, n)';
const OTHER = 'def __init__(self, n=5):\n        super().__init__(BalancedFolds, n)';

/** An accepted edit of FILE that names lines, as SWE-agent's `edit A:B` is logged. */
const landing = (range: string, text = BLOCK, path = FILE): Call => ({
  name: 'edit',
  arguments: { file_path: path, old_string: `<lines ${range}>`, new_string: text },
  body: () => textResult(`[File: ${path} (140 lines total)]\nFile updated.`),
});
const rejected = (range: string, text = 'print("failed:", str(err))'): Call => ({
  name: 'edit',
  arguments: { file_path: FILE, old_string: `<lines ${range}>`, new_string: text },
  body: () => textResult("Your proposed edit has introduced new syntax error(s).\n- F821 undefined name 'err'", {}, true),
});
const check: Call = { ...bash('python check.py'), body: () => bashResult(1, "KeyError: 'n'") };
const read: Call = { name: 'read', arguments: { file_path: FILE, offset: 1, limit: 100 } };

const APPLIED = { editRetry: { applied: 2 }, onLimit: 'deny' };
const RESENT = { editRetry: { resent: 3 }, onLimit: 'deny' };

describe('editRetry.applied: the same edit sent again after it landed', () => {
  test('off unless given: the same block re-applied at drifting ranges is never gated', async () => {
    const outcomes = await run(newHost({ editRetry: {}, onLimit: 'deny' }), {}, [landing('20:22'), check, landing('20:25'), check, landing('20:22'), landing('20:23')]);
    assert.deepEqual([noticedAt(outcomes), deniedAt(outcomes)], [[], []]);
  });

  test('advised at the landing that reaches the number, and the next send of it is gated, wherever it goes', async () => {
    const outcomes = await run(newHost(APPLIED), {}, [landing('20:22'), landing('60:62', OTHER), check, landing('20:25'), check, landing('20:22')]);
    assert.deepEqual(noticedAt(outcomes), [4]);
    assert.deepEqual(deniedAt(outcomes), [6]);
    assert.deepEqual(noticedAt(await run(newHost(APPLIED), {}, [landing('20:22'), landing('60:62', OTHER), landing('20:25'), landing('60:64', OTHER)])), [3], 'the advisory once a file a turn: the second block landing twice is not told again');
    assert.match(noticeTexts(outcomes[3]!)[0] ?? '', /^CONVERGENCE_CHECK: \/repo\/pkg\/folds\.py already holds this edit: it has landed 2 times\. Applying it again changes nothing\. /);
    assert.deepEqual(summaries(outcomes[3]!), [`${shown(`file:${FILE}`)} landed x2`]);
    assert.match(outcomes[5]!.denyReason ?? '', /the same edit of this file already landed 2 times \(limit 2\)\. It was stopped before it ran, by the edit-retry track/);
    assert.match(outcomes[5]!.denyReason ?? '', /\nOnly this edit is blocked: reading the file will run, and so will a different edit of it\.\n/);
  });

  test('only that edit is gated: a read, another edit of the file and the check still run', async () => {
    const host = newHost(APPLIED);
    const agent = {};
    await run(host, agent, [landing('20:22'), landing('20:25')]);
    const outcomes = await run(host, agent, [landing('20:22'), read, landing('60:62', OTHER), check, landing('20:21')]);
    assert.deepEqual(deniedAt(outcomes), [1, 5]);
  });

  test("its refusal leaves out 0.5.2's line about a description, timeoutMs or a host's spelling: an edit has none", async () => {
    const outcomes = await run(newHost(APPLIED), {}, [landing('20:22'), landing('20:25'), landing('20:22')]);
    const refusal = outcomes[2]?.denyReason ?? '';
    assert.match(refusal, /the same edit of this file already landed 2 times/);
    assert.doesNotMatch(refusal, /timeoutMs|spelling of the host/);
  });

  test('the same new text in place of different old texts is a fix at several sites, not one edit again', async () => {
    const site = (old: string): Call => ({ name: 'edit', arguments: { file_path: FILE, old_string: old, new_string: BLOCK }, body: () => textResult('The file has been edited.') });
    const outcomes = await run(newHost(APPLIED), {}, [site('raise A'), site('raise B'), site('raise C'), site('raise D')]);
    assert.deepEqual([noticedAt(outcomes), deniedAt(outcomes)], [[], []]);
  });

  test('the very same replacement of one old text is one edit: sent a third time after it landed twice, it is gated', async () => {
    const same: Call = { name: 'edit', arguments: { file_path: FILE, old_string: BLOCK, new_string: BLOCK }, body: () => textResult('The file has been edited.') };
    assert.deepEqual(deniedAt(await run(newHost(APPLIED), {}, [same, same, same])), [3]);
  });

  test('the same block placed by line at sites far apart is a fix at several sites: each lands, none is gated', async () => {
    const outcomes = await run(newHost(APPLIED), {}, [landing('12:13'), landing('48:49'), landing('95:96'), check, landing('131:132')]);
    assert.deepEqual([noticedAt(outcomes), deniedAt(outcomes)], [[], []]);
  });

  test('the count follows the block\'s last site: moved far it starts from 1 there, drifting a few lines it counts on', async () => {
    const outcomes = await run(newHost(APPLIED), {}, [landing('95:96'), landing('12:13'), landing('14:15'), landing('60:61'), landing('16:17')]);
    assert.deepEqual(deniedAt(outcomes), [], 'each move to another site counts from 1 there');
    const drifting = await run(newHost(APPLIED), {}, [landing('1269:1271'), check, landing('1272:1274'), check, landing('1269:1271')]);
    assert.deepEqual(deniedAt(drifting), [5], 'three lines of drift is the same place');
  });

  test('one line is no block: it may belong in many places of a file', async () => {
    const outcomes = await run(newHost(APPLIED), {}, ['3:3', '9:9', '14:14', '20:20'].map((range) => landing(range, '    import time')));
    assert.deepEqual(deniedAt(outcomes), []);
  });

  test('a shell line that changes files may have undone it, failing or not: the edit is new again', async () => {
    const undo: Call = { ...bash('git checkout -- pkg/folds.py && python check.py'), body: () => bashResult(1, 'FAILED') };
    const outcomes = await run(newHost(APPLIED), {}, [landing('20:22'), landing('20:22'), undo, landing('20:22'), landing('20:22'), landing('20:22')]);
    assert.deepEqual(noticedAt(outcomes), [2], 'told once a file a turn');
    assert.deepEqual(deniedAt(outcomes), [6], 'counted from the checkout again');
  });

  test('a whole file written again after rm is new again', async () => {
    const write: Call = { name: 'write', arguments: { file_path: '/tmp/run/settings.yaml', content: 'workers: 2\ntimeout: 30' } };
    const outcomes = await run(newHost(APPLIED), {}, [write, bash('./run.sh && rm /tmp/run/settings.yaml'), write, bash('./run.sh && rm /tmp/run/settings.yaml'), write]);
    assert.deepEqual([noticedAt(outcomes), deniedAt(outcomes)], [[], []]);
  });

  test('an edit whose old text is exactly a text that landed undoes it: redoing it is new again', async () => {
    const apply: Call = { name: 'edit', arguments: { file_path: FILE, old_string: OTHER, new_string: BLOCK } };
    const revert: Call = { name: 'edit', arguments: { file_path: FILE, old_string: BLOCK, new_string: OTHER } };
    const outcomes = await run(newHost(APPLIED), {}, [apply, revert, apply, revert, apply, revert, apply]);
    assert.deepEqual([noticedAt(outcomes), deniedAt(outcomes)], [[], []]);
  });

  test('each agent counts its own edits, and a human message starts them again', async () => {
    const host = newHost(APPLIED);
    const [a, b] = [{}, {}];
    await run(host, a, [landing('20:22'), landing('20:22')]);
    assert.deepEqual(deniedAt(await run(host, b, [landing('20:22'), landing('20:22')])), [], 'the other agent has its own count');
    await host.human(a);
    assert.deepEqual(deniedAt(await run(host, a, [landing('20:22'), landing('20:22'), landing('20:22')])), [3]);
  });
});

describe('editRetry.resent: the same edit sent again after it was rejected', () => {
  test('gated at the send after the third rejection of the same text, wherever it goes, checks between or not', async () => {
    const outcomes = await run(newHost(RESENT), {}, [rejected('95:95'), rejected('95:96'), check, rejected('95:95'), rejected('95:96')]);
    assert.deepEqual(deniedAt(outcomes), [5]);
    assert.match(outcomes[4]!.denyReason ?? '', /the same edit of this file was rejected 3 times \(limit 3\)/);
  });

  test('advised at the third rejection when the streak does not say it already', async () => {
    const outcomes = await run(newHost({ editRetry: { warnAt: null, resent: 3 }, onLimit: 'deny' }), {}, [rejected('95:95'), rejected('95:96'), rejected('95:95')]);
    assert.deepEqual(noticedAt(outcomes), [3]);
    assert.match(noticeTexts(outcomes[2]!)[0] ?? '', /^CONVERGENCE_CHECK: the same edit of \/repo\/pkg\/folds\.py has now been rejected 3 times, with nothing in the file changed in between\. /);
    assert.deepEqual(summaries(outcomes[2]!), [`${shown(`file:${FILE}`)} rejected alike x3`]);
  });

  test('another text runs; a read of the file, or an edit of it that lands, makes the rejected text new again', async () => {
    const host = newHost(RESENT);
    const agent = {};
    await run(host, agent, [rejected('95:95'), rejected('95:96'), rejected('95:97')]);
    const outcomes = await run(host, agent, [rejected('95:95', 'print("failed")'), read, rejected('96:96'), rejected('97:97'), landing('20:22'), rejected('98:98'), rejected('99:99')]);
    assert.deepEqual(deniedAt(outcomes), []);
  });

  test('off unless given: `editRetry: {}` leaves it to the limit', async () => {
    const outcomes = await run(newHost({ editRetry: {}, onLimit: 'deny' }), {}, [rejected('95:95'), rejected('95:96'), check, rejected('95:95'), rejected('95:96')]);
    assert.deepEqual(deniedAt(outcomes), [], 'the limit gates the edit after the fourth rejection in a row, not the fourth');
  });
});

describe('what the model and the operator read of an edit sent again', () => {
  const hit = (words: typeof landedWords) => ({ key: 'k', words, quote: `file:${FILE}`, count: 2, cap: 2, detail: '', shown: 'folds.py' }) as never;

  test('each gate\'s refusal, line, note and ask in both languages, whole', () => {
    assert.deepEqual(
      [landedWords.track, landedWords.respelled, landedWords.why(hit(landedWords)), landedWords.line(hit(landedWords)), landedWords.note],
      ['edit-retry', false, 'the same edit of this file already landed 2 times (limit 2)', `file:${FILE} \u2014 the same edit landed 2 times already (limit 2)`, 'Only this edit is blocked: reading the file will run, and so will a different edit of it.'],
    );
    assert.deepEqual(
      [landedWords.ask.what(hit(landedWords)), landedWords.ask.also(hit(landedWords)), landedWords.zh.what(hit(landedWords)), landedWords.zh.also(hit(landedWords))],
      ['the agent has already applied this same edit to folds.py 2 times.', 'landed 2 times already', 'agent 已经把这同一个编辑应用到 folds.py 2 次了。', '已生效 2 次'],
    );
    assert.deepEqual(
      [resentWords.track, resentWords.respelled, resentWords.why(hit(resentWords)), resentWords.line(hit(resentWords)), resentWords.note],
      ['edit-retry', false, 'the same edit of this file was rejected 2 times (limit 2)', `file:${FILE} \u2014 the same edit rejected 2 times (limit 2)`, 'Only this edit is blocked: reading the file will run, and so will a different edit of it.'],
    );
    assert.deepEqual(
      [resentWords.ask.what(hit(resentWords)), resentWords.ask.also(hit(resentWords)), resentWords.zh.what(hit(resentWords)), resentWords.zh.also(hit(resentWords))],
      ['the agent has sent this same edit of folds.py 2 times, and it was rejected each time.', 'rejected 2 times', 'agent 已 2 次向 folds.py 发送这同一个编辑，每次都被拒绝。', '被拒 2 次'],
    );
  });

  test('the advisories whole, and the refusal quotes the file', async () => {
    const landed = await run(newHost(APPLIED), {}, [landing('20:22'), landing('20:25'), landing('20:22')]);
    assert.deepEqual(noticeTexts(landed[1]!), [
      `CONVERGENCE_CHECK: ${FILE} already holds this edit: it has landed 2 times. Applying it again changes nothing. Read that part of the file, then make a different change, or say what is in the way.`,
    ]);
    assert.match(landed[2]!.denyReason ?? '', new RegExp(`\\n- file:${FILE.replaceAll('/', '\\/').replaceAll('.', '\\.')} \u2014 the same edit landed 2 times already \\(limit 2\\)\\n`));
    const sent = await run(newHost({ editRetry: { warnAt: null, resent: 3 }, onLimit: 'deny' }), {}, [rejected('95:95'), rejected('95:96'), rejected('95:95')]);
    assert.deepEqual(noticeTexts(sent[2]!), [
      `CONVERGENCE_CHECK: the same edit of ${FILE} has now been rejected 3 times, with nothing in the file changed in between. Sending it again unchanged will be rejected again. Read the part of the file you are changing as it is now, then send an edit made from what you read.`,
    ]);
  });

  test('each gate advises once a file a turn, each file and each gate on its own', async () => {
    const two = (path: string): Call[] => [landing('20:22', BLOCK, path), landing('20:25', BLOCK, path)];
    const files = await run(newHost(APPLIED), {}, [...two(FILE), ...two('/repo/pkg/other.py')]);
    assert.deepEqual(noticedAt(files), [2, 4], 'another file is told too');
    const gates = await run(newHost({ editRetry: { warnAt: null, applied: 2, resent: 2 }, onLimit: 'deny' }), {}, [rejected('95:95'), rejected('95:96'), landing('20:22'), landing('20:25')]);
    assert.deepEqual(noticedAt(gates), [2, 4], 'the other gate of the same file is told too');
  });

  test('a read that failed is no read: the rejected edit sent again is still gated', async () => {
    const missing: Call = { ...read, body: () => textResult('File not found', {}, true) };
    const outcomes = await run(newHost(RESENT), {}, [rejected('95:95'), rejected('95:96'), rejected('95:97'), missing, rejected('95:98')]);
    assert.deepEqual(deniedAt(outcomes), [5]);
  });
});

describe('the edit book (tracks/edits.ts)', () => {
  const call = (args: Record<string, unknown>, name = 'edit'): TrackedCall => ({ agent: {}, cfg: {} as TrackedCall['cfg'], name, command: undefined, marks: [], writes: true, file: String(args.file_path), reads: false, kept: [] });

  test('an edit is its file, its new text, and its old text only when that is text, not lines', () => {
    const text = (args: Record<string, unknown>) => editTextOf(call(args), args);
    const at = (old: string) => text({ file_path: FILE, new_string: BLOCK, old_string: old });
    assert.equal(at('<lines 1:2>')?.edit, at('<lines 30:41>')?.edit, 'lines drift; the edit is the same');
    assert.notEqual(at('raise A')?.edit, at('raise B')?.edit, 'another old text is another site');
    assert.notEqual(at('<lines 1:2>')?.edit, text({ file_path: '/repo/other.py', new_string: BLOCK, old_string: '<lines 1:2>' })?.edit, 'another file');
    assert.equal(text({ file_path: FILE, new_string: '  \n ', old_string: 'x' }), null, 'a deletion puts nothing in');
    assert.equal(at('<lines 1:2>')?.block, true);
    assert.equal(text({ file_path: FILE, new_string: 'one line', old_string: 'x' })?.block, false);
    const unreadable = { file_path: FILE, get new_string(): string { throw new Error('no'); } };
    assert.equal(editTextOf(call({ file_path: FILE }), unreadable), null, 'arguments that cannot be read are no edit');
    assert.equal(editTextOf(call({ file_path: FILE }), null), null, 'no arguments, no edit');
    assert.equal(editTextOf({ ...call({ file_path: FILE }), reads: true }, { file_path: FILE, new_string: BLOCK }), null, 'a read is no edit');
  });

  test('bounded: past 64 edits of a file, the oldest is forgotten', () => {
    const book = createEditBook();
    const agent = {};
    const edits = Array.from({ length: 65 }, (_, n) => editTextOf(call({ file_path: FILE }), { file_path: FILE, new_string: `a${n}\nb${n}` }));
    for (const edit of edits) book.land(agent, edit!);
    assert.equal(book.of(agent, edits[0]!).landed, 0);
    assert.equal(book.of(agent, edits[64]!).landed, 1);
  });
});
