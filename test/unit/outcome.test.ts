/**
 * What the stale track compares: two results that tell the model the same
 * thing digest alike, and anything that could be news digests apart.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { outcomeDigest } from '../../src/lib/result/digest.js';
import { maskShellLine } from '../../src/lib/result/noise.js';
import { bashResult, textResult } from '../support/fake-host.js';

const text = (body: string, isError = false): unknown => textResult(body, {}, isError);

describe('outcomeDigest: the same answer, whatever the noise', () => {
  test('equal results digest alike, and a different text digests apart', () => {
    assert.equal(outcomeDigest(text('No matches found')), outcomeDigest(text('No matches found')));
    assert.notEqual(outcomeDigest(text('No matches found')), outcomeDigest(text('1 match found')));
  });

  test('line endings and trailing blanks are noise', () => {
    assert.equal(outcomeDigest(text('a  \r\nb\t\r\n')), outcomeDigest(text('a\nb\n')));
  });

  test('the order of lines is noise: stdout and stderr interleave differently from run to run', () => {
    assert.equal(outcomeDigest(text("0\nfind: paths must precede expression: `boot'")), outcomeDigest(text("find: paths must precede expression: `boot'\n0")));
  });

  test('a long-lived shell numbering its own errors is noise', () => {
    assert.equal(
      outcomeDigest(text('/bin/bash: line 32514: cd: fastxml: No such file or directory')),
      outcomeDigest(text('/bin/bash: line 32529: cd: fastxml: No such file or directory')),
    );
  });

  test('any other number is news: a poll whose count moves, a test run with fewer failures', () => {
    assert.notEqual(outcomeDigest(text('downloaded 1024 bytes')), outcomeDigest(text('downloaded 2048 bytes')));
    assert.notEqual(outcomeDigest(text('3 failed, 12 passed')), outcomeDigest(text('2 failed, 13 passed')));
  });

  test('a line repeated is not the same as the line once: the count of lines counts', () => {
    assert.notEqual(outcomeDigest(text('ok\nok')), outcomeDigest(text('ok')));
  });

  test('the error flag, the exit code and a timeout each tell the results apart', () => {
    assert.notEqual(outcomeDigest(text('x')), outcomeDigest(text('x', true)));
    assert.notEqual(outcomeDigest(bashResult(0, 'x')), outcomeDigest(bashResult(2, 'x')));
    assert.notEqual(outcomeDigest(bashResult(0, 'x')), outcomeDigest(bashResult(0, 'x', { timedOut: true })));
  });

  test('the rest of a structured value (stdout copies, an echoed timeoutMs) is not read', () => {
    assert.equal(outcomeDigest(bashResult(0, 'x', { timeoutMs: 5000 })), outcomeDigest(bashResult(0, 'x', { timeoutMs: 90000 })));
  });

  test('a result that cannot be read is no evidence: null, never a digest two such results could share', () => {
    const hostile = { get content(): never { throw new Error('no'); } };
    assert.equal(outcomeDigest(hostile), null);
    assert.equal(typeof outcomeDigest(undefined), 'string', 'an absent result is an empty one, which can be read');
  });
});

describe('maskShellLine', () => {
  test('masks the counter of `<shell>: line N:` and nothing else', () => {
    assert.equal(maskShellLine('/bin/bash: line 12: x: command not found'), '/bin/bash: line #: x: command not found');
    assert.equal(maskShellLine('sh: line 3: y'), 'sh: line #: y');
    assert.equal(maskShellLine('error at line 12: bad'), 'error at line 12: bad', 'a space before `: line` is no shell path');
    assert.equal(maskShellLine('python: line 12: x'), 'python: line 12: x', 'only a shell ends in sh');
    assert.equal(maskShellLine('bash: line x: y'), 'bash: line x: y', 'no digits, no counter');
  });
});
