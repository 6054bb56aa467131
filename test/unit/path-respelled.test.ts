/**
 * A file tool's path respelled (call/path.ts): the call read with its path
 * aside, the path's one spelling, and which spellings may name one file.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { argumentsJson } from '../../src/lib/call/canonical.js';
import { mayNameOneFile, mayNameOneFiles, PATH_READ_LIMIT, pathReading, shellPathReading } from '../../src/lib/call/path.js';
import { ACT_READ_LIMIT } from '../../src/lib/shell/act/index.js';
import { deniedAt, newHost, textResult } from '../support/session.js';

const exactOf = (name: string, args: Record<string, unknown>): string => `exact:${name}:${argumentsJson(args, new Set())}`;
const readingOf = (name: string, args: Record<string, unknown>) => pathReading(name, args, exactOf(name, args));

describe('a file tool call with its path aside', () => {
  test('the same call in another spelling of its path has the same rest; another window, another tool or another member value does not', () => {
    const a = readingOf('read', { path: 'src/a.py', offset: 40, limit: 10 });
    const b = readingOf('read', { path: './src//a.py', offset: 40, limit: 10 });
    assert.ok(a !== null && b !== null, 'both calls have a path reading');
    assert.equal(a.rest, b.rest);
    assert.deepEqual([a.spelling, b.spelling, b.paths], ['src/a.py', 'src/a.py', ['./src//a.py']]);
    assert.notEqual(readingOf('read', { path: 'src/a.py', offset: 80, limit: 10 })?.rest, a.rest, 'another window');
    assert.notEqual(readingOf('view_file', { path: 'src/a.py', offset: 40, limit: 10 })?.rest, a.rest, 'another tool');
    const view = readingOf('str_replace_editor', { command: 'view', path: '/testbed//x.py', view_range: [1, 9] });
    assert.equal(view?.spelling, '/testbed/x.py');
    assert.equal(readingOf('Read', { file_path: '/repo/./a.py' })?.spelling, '/repo/a.py', 'file_path, as change.ts reads it');
  });

  test('no reading for a shell call, a missing, empty or non-string path, a path past the limit, or a path the identity does not hold', () => {
    assert.equal(readingOf('bash', { command: 'cat a.py', path: 'a.py' }), null);
    assert.equal(readingOf('read', { offset: 1 }), null);
    assert.equal(readingOf('read', { path: '' }), null);
    assert.equal(readingOf('read', { path: 42 }), null);
    assert.equal(readingOf('read', { file_path: 42, path: 'a.py' }), null, 'the first member named is the one read, as change.ts reads it');
    assert.equal(readingOf('read', { path: `a/${'x'.repeat(PATH_READ_LIMIT)}` }), null);
    assert.equal(pathReading('read', { path: 'a.py' }, 'exact:read:{"path":"b.py"}'), null);
    assert.equal(pathReading('read', { path: 'a.py' }, `exact:read:{"path":"a.py","x":"${'y'.repeat(70_000)}"}`), null, 'an identity past its limit');
  });

  test('a hostile argument object reads as no path, never a throw', () => {
    const hostile = new Proxy({}, { get: () => { throw new Error('boom'); }, ownKeys: () => { throw new Error('boom'); } });
    assert.equal(pathReading('read', hostile, 'exact:read:{}'), null);
  });
});

describe('a shell line with its paths aside', () => {
  test('the operands a tabled command takes as paths, and a tabled cmdlet\'s path parameters, are set aside; patterns, scripts and untabled commands stay', () => {
    const head = shellPathReading('head -n 60 /work/app/src/a.py', 'posix', true);
    assert.deepEqual(head?.paths, ['/work/app/src/a.py']);
    assert.equal(shellPathReading('head -60 ./src//a.py', 'posix', true)?.rest, head?.rest, 'act: reads the count and the spelling first');
    assert.equal(shellPathReading('head -60 ./src//a.py', 'posix', true)?.spelling, 'src/a.py');
    assert.notEqual(shellPathReading('tail -n 60 src/a.py', 'posix', true)?.rest, head?.rest);
    const sed = shellPathReading("sed -n '40,45p' src/a.py", 'posix', true);
    assert.deepEqual(sed?.paths, ['src/a.py'], "sed's script is no path");
    assert.notEqual(shellPathReading("sed -n '50,55p' src/a.py", 'posix', true)?.rest, sed?.rest);
    assert.deepEqual(shellPathReading('grep -n "a/b" src/x.py', 'posix', true)?.paths, ['src/x.py'], "grep's pattern is no path");
    assert.equal(shellPathReading('./run.sh src/a.py', 'posix', true), null, 'a command not in the table names no path it is known to read');
    const gc = shellPathReading('Get-Content .\\src\\App.cs -Tail 30', 'pwsh', true);
    assert.deepEqual(gc?.paths, ['src\\App.cs']);
    assert.equal(shellPathReading('gc C:\\proj\\src\\App.cs -Tail 30', 'pwsh', true)?.rest, gc?.rest);
    assert.equal(shellPathReading('head -n 5 src/a.py', 'pwsh', true), null, 'in pwsh, only the cmdlet table names paths');
    assert.deepEqual(shellPathReading('cat src/a.py', 'pwsh', true)?.paths, ['src/a.py'], 'cat is Get-Content there');
  });

  test('without act:, the line as written; past act:\'s read limit or unmodelled, no reading', () => {
    assert.deepEqual(shellPathReading('cat ./src//a.py', 'posix', false)?.paths, ['./src//a.py']);
    assert.equal(shellPathReading(`cat ${'a'.repeat(ACT_READ_LIMIT)}`, 'posix', true), null);
    assert.equal(shellPathReading('cat $(ls)', 'posix', true), null);
    assert.equal(shellPathReading('ls -la', 'posix', true), null, 'no path, no reading');
  });
});

describe('two spellings that may name one file', () => {
  test('the same segments read lexically: `.`, empty segments, a trailing slash, `..`, `\\` as `/`, a drive letter in any case', () => {
    assert.ok(mayNameOneFile('src/a.py', './src//a.py'), '`./` and an empty segment name nothing');
    assert.ok(mayNameOneFile('src/lib/../a.py', 'src/a.py'), '`lib/..` read lexically');
    assert.ok(mayNameOneFile('/repo/src/', '/repo/./src'), 'a trailing slash and `/./`');
    assert.ok(mayNameOneFile('C:\\proj\\src\\A.cs', 'c:/proj/./src/A.cs'), 'a drive path with `\\` and `/`, the drive in any case');
    assert.ok(mayNameOneFile('/../etc/hosts', '/etc/hosts'), '`..` at the root stays there');
    assert.ok(mayNameOneFile('C:/../x', 'C:/x'), '`..` at a drive\'s root stays there');
  });

  test('an absolute path ending with a relative one; never a relative path that climbs out', () => {
    assert.ok(mayNameOneFile('/work/app/src/a.py', 'src/a.py'), 'an absolute path ending with the relative one');
    assert.ok(mayNameOneFile('src/a.py', '/work/app/src/a.py'), 'either way round');
    assert.equal(mayNameOneFile('/work/app/src/a.py', '../src/a.py'), false);
    assert.equal(mayNameOneFile('/work/app/src/a.py', '.'), false);
    assert.equal(mayNameOneFile('/work/app/xsrc/a.py', 'src/a.py'), false, 'whole segments only');
  });

  test('look-alike paths of other files stay apart', () => {
    assert.equal(mayNameOneFile('a/x.py', 'b/x.py'), false);
    assert.equal(mayNameOneFile('x.py', './x.pyi'), false);
    assert.equal(mayNameOneFile('src/a.py', 'a.py'), false, 'two relative paths are compared whole');
    assert.equal(mayNameOneFile('/a/src/a.py', '/b/src/a.py'), false, 'two absolute paths are compared whole');
    assert.equal(mayNameOneFile('../a.py', 'a.py'), false);
    assert.equal(mayNameOneFile('a/../../b', 'b'), false, 'a `..` with nothing left to take is kept');
    assert.ok(mayNameOneFiles(['/w/a.py', 'b.py'], ['a.py', './b.py']), 'place by place, each may name one file');
    assert.equal(mayNameOneFiles(['a.py', 'b.py'], ['b.py', 'a.py']), false, 'place by place');
    assert.equal(mayNameOneFiles(['a.py'], ['a.py', 'b.py']), false);
  });
});

describe('hostile paths through the back-to-back run', () => {
  test('a throwing member, a megabyte path, thousands of `..` segments: the calls are judged, nothing throws, the very same call still meets the gate', async () => {
    const host = newHost({ stale: { warnAt: 3, limit: 5, backToBack: 3 }, onLimit: 'deny' });
    const throwing = new Proxy({ path: 'a.py' }, { get: (target, key) => { if (key === 'path') throw new Error('boom'); return Reflect.get(target, key); } });
    const huge = `${'a/'.repeat(500_000)}x.py`;
    const climbing = `${'a/'.repeat(800)}${'../'.repeat(800)}x.py`; // 4,004 characters, within the read limit
    for (const args of [throwing, { path: huge }, { path: climbing }]) {
      const outcomes = [];
      const agent = {};
      for (let i = 0; i < 4; i += 1) outcomes.push(await host.call({ agent, name: 'read', arguments: args, body: () => textResult('1\tx') }));
      assert.deepEqual(deniedAt(outcomes), [4]);
    }
    const spelled = [];
    const agent = {};
    for (const path of [climbing, 'x.py', `./${climbing}`, 'x.py']) spelled.push(await host.call({ agent, name: 'read', arguments: { path }, body: () => textResult('1\tx') }));
    assert.deepEqual(deniedAt(spelled), [4], '`a/../x.py` read as `x.py` by its answer');
  });
});
