/**
 * SWE-agent's search commands with their place written out (call/aci-search.ts),
 * and a file read through a file tool and through a shell read compared with
 * its line-number gutter aside (result/gutter.ts): what joins the stale track's
 * back-to-back run, and what must not.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { shellPathReading } from '../../src/lib/call/path.js';
import { sameTextBesideGutters } from '../../src/lib/result/gutter.js';
import { ANSWER_READ_LIMIT } from '../../src/lib/result/answer.js';
import { bashResult, deniedAt, newHost, noticedAt, textResult, type CallOutcome } from '../support/session.js';

// act: measured, as the preset measures it: a quoted term is the same word (without it, the line is read as written).
const BACK_TO_BACK = { stale: { warnAt: 3, limit: 5, backToBack: 3 }, limits: { act: 12 }, onLimit: 'deny' };
const noMatches = (term: string, place: string): string => `No matches found for "${term}" in ${place}`;

describe('a search with its place written out', () => {
  test('find_file and search_dir search ./ when no directory is given: ., ./ and nothing are one spelling; another directory is another', () => {
    const bare = shellPathReading('find_file "Parser.java"', 'posix', true);
    assert.ok(bare !== null, 'the default place is read as the search\'s path');
    assert.deepEqual([bare.paths, bare.spelling, bare.answerNames], [['./'], '.', true]);
    for (const line of ['find_file Parser.java .', "find_file 'Parser.java' ./"]) {
      assert.deepEqual([shellPathReading(line, 'posix', true)?.rest, shellPathReading(line, 'posix', true)?.spelling], [bare.rest, '.'], line);
    }
    assert.equal(shellPathReading('find_file Parser.java src/', 'posix', true)?.spelling, 'src');
    assert.equal(shellPathReading('find_file Parser.java /repo', 'posix', true)?.rest, bare.rest, 'the same search of another place');
    assert.notEqual(shellPathReading('find_file Lexer.java', 'posix', true)?.rest, bare.rest, 'another term');
    assert.notEqual(shellPathReading('search_dir Parser.java', 'posix', true)?.rest, bare.rest, 'another command');
    assert.equal(shellPathReading('search_dir "def login"', 'posix', true)?.spelling, '.');
  });

  test('search_file searches the open file when none is given; a usage error, an expanding word or another dialect has no place', () => {
    assert.deepEqual(shellPathReading('search_file "def login"', 'posix', true)?.paths, ['$CURRENT_FILE']);
    assert.deepEqual(shellPathReading('search_file "def login" app/auth.py', 'posix', true)?.paths, ['app/auth.py']);
    assert.equal(shellPathReading('find_file', 'posix', true), null, 'no term: SWE-agent prints its usage');
    assert.equal(shellPathReading('find_file a.py src lib', 'posix', true), null, 'a place too many: its usage again');
    assert.equal(shellPathReading('find_file "$NAME"', 'posix', true), null);
    assert.equal(shellPathReading('find_file a.py', 'pwsh', true), null);
    assert.equal(shellPathReading('cat a.py; find_file a.py', 'posix', true)?.answerNames, undefined, 'a line that reads another path too: the answer does not name each');
  });

  test('the same search with its place left out, written as . or ./, meets the gate after three of the same answer', async () => {
    const host = newHost(BACK_TO_BACK);
    const agent = {};
    const outcomes: CallOutcome[] = [];
    for (const line of ['find_file "Parser.java"', 'find_file Parser.java .', 'find_file Parser.java ./', 'find_file "Parser.java"']) {
      outcomes.push(await host.call({ agent, name: 'bash', arguments: { command: line }, body: () => bashResult(0, noMatches('Parser.java', '/repo')) }));
    }
    assert.deepEqual(deniedAt(outcomes), [4]);
  });

  test('a place no rule reads as the same (/repo after .) joins only by the very same answer, and meets the gate in a spelling the run answered', async () => {
    const host = newHost(BACK_TO_BACK);
    const agent = {};
    const outcomes: CallOutcome[] = [];
    for (const line of ['find_file Parser.java', 'find_file Parser.java .', 'find_file Parser.java /repo', 'find_file Parser.java /repo']) {
      outcomes.push(await host.call({ agent, name: 'bash', arguments: { command: line }, body: () => bashResult(0, noMatches('Parser.java', '/repo')) }));
    }
    assert.deepEqual(deniedAt(outcomes), [4]);
    const moved = newHost(BACK_TO_BACK);
    const other = {};
    const places: CallOutcome[] = [];
    for (const [line, place] of [['find_file Parser.java', '/repo'], ['find_file Parser.java src', '/repo/src'], ['find_file Parser.java lib', '/repo/lib'], ['find_file Parser.java core', '/repo/core'], ['find_file Parser.java', '/repo']] as const) {
      places.push(await moved.call({ agent: other, name: 'bash', arguments: { command: line }, body: () => bashResult(0, noMatches('Parser.java', place)) }));
    }
    assert.deepEqual([deniedAt(places), noticedAt(places)], [[], []], 'each answer names another place: exploring');
  });

  test('searches for other terms answered No matches, and a search after a file was created, run on', async () => {
    const host = newHost(BACK_TO_BACK);
    const agent = {};
    const outcomes: CallOutcome[] = [];
    for (const term of ['Parser', 'Parser.java', 'class Parser', 'ParserBase', 'Lexer']) {
      outcomes.push(await host.call({ agent, name: 'bash', arguments: { command: `search_dir "${term}" .` }, body: () => bashResult(0, noMatches(term, '/repo')) }));
    }
    assert.deepEqual(deniedAt(outcomes), []);
    const created = newHost(BACK_TO_BACK);
    const calls: CallOutcome[] = [];
    for (const line of ['find_file Parser.java', 'find_file Parser.java .']) calls.push(await created.call({ agent, name: 'bash', arguments: { command: line }, body: () => bashResult(0, noMatches('Parser.java', '/repo')) }));
    calls.push(await created.call({ agent, name: 'write', arguments: { file_path: 'Parser.java', content: 'class Parser {}' } }));
    for (const line of ['find_file Parser.java ./', 'find_file Parser.java']) calls.push(await created.call({ agent, name: 'bash', arguments: { command: line }, body: () => bashResult(0, noMatches('Parser.java', '/repo')) }));
    assert.deepEqual(deniedAt(calls), [], 'a change ends the run');
  });
});

describe('a file read through a file tool and through a shell read', () => {
  const tool = '1\tDEBUG = False\n2\tPORT = 8000\n';
  test('the gutter aside: a file tool\'s, cat -n\'s, an arrow or a colon; numbers that skip, a line without one, or another text are no gutter', () => {
    assert.ok(sameTextBesideGutters(tool, 'DEBUG = False\nPORT = 8000\n'), 'cat');
    assert.ok(sameTextBesideGutters(tool, '     1\tDEBUG = False\n     2\tPORT = 8000'), 'cat -n, no last newline');
    assert.ok(sameTextBesideGutters('    40\u2192a\n    41\u2192b', '40:a\n41:b'), 'an arrow and a colon, from line 40');
    assert.equal(sameTextBesideGutters(tool, 'DEBUG = True\nPORT = 8000\n'), false, 'another text');
    assert.equal(sameTextBesideGutters('1\ta\n3\tb', 'a\nb'), false, 'numbers that skip are the text');
    assert.equal(sameTextBesideGutters('1\ta\nb', 'a\nb'), false, 'a line without a gutter: the text as it is');
    assert.equal(sameTextBesideGutters('1\t\n2\t ', '\n '), false, 'blank lines say nothing');
    assert.equal(sameTextBesideGutters(`1\t${'x'.repeat(ANSWER_READ_LIMIT)}`, 'x'.repeat(ANSWER_READ_LIMIT)), false, 'past the read limit');
  });

  test('read, cat, read, cat of one file, the same text: the run goes on across both ways and the next cat meets the gate; cat -n joins by its answer', async () => {
    const host = newHost(BACK_TO_BACK);
    const agent = {};
    const outcomes: CallOutcome[] = [];
    const read = async (): Promise<CallOutcome> => host.call({ agent, name: 'read', arguments: { path: 'app/config.py' }, body: () => textResult(tool) });
    const cat = async (line: string, text: string): Promise<CallOutcome> => host.call({ agent, name: 'bash', arguments: { command: line }, body: () => bashResult(0, text) });
    const plain = 'DEBUG = False\nPORT = 8000\n';
    outcomes.push(await read(), await cat('cat app/config.py', plain), await read(), await cat('cat app/config.py', plain));
    assert.deepEqual(deniedAt(outcomes), [4]);
    const numbered: CallOutcome[] = [];
    const other = {};
    const readAgain = async (): Promise<CallOutcome> => host.call({ agent: other, name: 'read', arguments: { path: 'app/config.py' }, body: () => textResult(tool) });
    numbered.push(await readAgain(), await host.call({ agent: other, name: 'bash', arguments: { command: 'cat app/config.py' }, body: () => bashResult(0, plain) }), await readAgain());
    numbered.push(await host.call({ agent: other, name: 'bash', arguments: { command: 'cat -n ./app/config.py' }, body: () => bashResult(0, '     1\tDEBUG = False\n     2\tPORT = 8000\n') }), await readAgain());
    assert.deepEqual(deniedAt(numbered), [5], 'cat -n is another line: it joins by its answer, the next read meets the gate');
  });

  test('another file with the same text, an edit between, or another text: no join', async () => {
    const host = newHost(BACK_TO_BACK);
    const agent = {};
    const outcomes: CallOutcome[] = [];
    const read = async (path: string): Promise<CallOutcome> => host.call({ agent, name: 'read', arguments: { path }, body: () => textResult(tool) });
    const cat = async (line: string): Promise<CallOutcome> => host.call({ agent, name: 'bash', arguments: { command: line }, body: () => bashResult(0, 'DEBUG = False\nPORT = 8000\n') });
    outcomes.push(await read('app/config.py'), await cat('cat app/config.py.bak'), await read('app/config.py'), await cat('cat app/defaults.py'), await read('app/config.py'));
    outcomes.push(await host.call({ agent, name: 'edit', arguments: { file_path: 'app/config.py', old_string: 'a', new_string: 'b' } }));
    outcomes.push(await cat('cat app/config.py'), await read('app/config.py'), await cat('cat app/config.py'));
    assert.deepEqual(deniedAt(outcomes), []);
  });
});
