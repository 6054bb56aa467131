/**
 * A file tool's path respelled (call/path.ts): the call read with its path
 * aside, the path's one spelling, and which spellings may name one file.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { argumentsJson } from '../../src/lib/call/canonical.js';
import { mayNameOneFile, PATH_READ_LIMIT, pathReading } from '../../src/lib/call/path.js';

const exactOf = (name: string, args: Record<string, unknown>): string => `exact:${name}:${argumentsJson(args, new Set())}`;
const readingOf = (name: string, args: Record<string, unknown>) => pathReading(name, args, exactOf(name, args));

describe('a file tool call with its path aside', () => {
  test('the same call in another spelling of its path has the same rest; another window, another tool or another member value does not', () => {
    const a = readingOf('read', { path: 'src/a.py', offset: 40, limit: 10 });
    const b = readingOf('read', { path: './src//a.py', offset: 40, limit: 10 });
    assert.ok(a !== null && b !== null);
    assert.equal(a.rest, b.rest);
    assert.deepEqual([a.spelling, b.spelling, b.path], ['src/a.py', 'src/a.py', './src//a.py']);
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

describe('two spellings that may name one file', () => {
  test('the same segments read lexically: `.`, empty segments, a trailing slash, `..`, `\\` as `/`, a drive letter in any case', () => {
    assert.ok(mayNameOneFile('src/a.py', './src//a.py'));
    assert.ok(mayNameOneFile('src/lib/../a.py', 'src/a.py'));
    assert.ok(mayNameOneFile('/repo/src/', '/repo/./src'));
    assert.ok(mayNameOneFile('C:\\proj\\src\\A.cs', 'c:/proj/./src/A.cs'));
    assert.ok(mayNameOneFile('/../etc/hosts', '/etc/hosts'), '`..` at the root stays there');
    assert.ok(mayNameOneFile('C:/../x', 'C:/x'));
  });

  test('an absolute path ending with a relative one; never a relative path that climbs out', () => {
    assert.ok(mayNameOneFile('/work/app/src/a.py', 'src/a.py'));
    assert.ok(mayNameOneFile('src/a.py', '/work/app/src/a.py'));
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
  });
});
