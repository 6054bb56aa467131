/**
 * HTML-escaped operators (act/entities.ts): `&amp;`, `&lt;` and `&gt;` outside
 * quotes are read as the operators a model meant; inside quotes they are text.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { unescapeOperators } from '../../src/lib/shell/act/entities.js';
import { actOf } from '../../src/lib/shell/act/index.js';
import { lex } from '../../src/lib/shell/lex.js';

describe('act: HTML-escaped operators', () => {
  test('an escaped && and 2>&1 outside quotes read as the operators, so the test run folds with its plain spelling', () => {
    const plain = actOf('cd /repo && pytest -x tests/test_a.py 2>&1 | tail -n 50');
    assert.equal(actOf('cd /repo &amp;&amp; pytest -x tests/test_a.py 2&gt;&amp;1 | tail -n 50'), plain);
    assert.equal(actOf('cd /repo &amp;&amp; pytest -x tests/test_a.py'), plain);
    assert.equal(actOf('python run.py &gt; out.txt'), actOf('python run.py > out.txt'));
  });

  test('inside a bash -lc string, the inner line reads its entities too', () => {
    assert.equal(actOf("bash -lc 'cd /repo &amp;&amp; pytest -x tests'"), actOf('cd /repo && pytest -x tests'));
  });

  test('a quoted entity is text a program receives, and stays', () => {
    assert.equal(unescapeOperators("grep '&amp;' page.html"), "grep '&amp;' page.html");
    assert.equal(unescapeOperators('grep "&lt;div&gt;" page.html'), 'grep "&lt;div&gt;" page.html');
    assert.equal(unescapeOperators('echo \\&amp; x'), 'echo \\&amp; x');
    assert.notEqual(actOf("grep '&amp;' page.html"), actOf("grep '&' page.html"));
  });

  test('a line without an entity, or with $\'…\' quoting, is the very string it was', () => {
    const line = 'make test && echo done';
    assert.equal(unescapeOperators(line), line);
    assert.equal(unescapeOperators("echo $'a\\'b' &amp;&amp; ls"), "echo $'a\\'b' &amp;&amp; ls");
    assert.equal(unescapeOperators('a &amp;&amp; b &lt; in &gt; out'), 'a && b < in > out');
    assert.equal(unescapeOperators('a &ampx b'), 'a &ampx b');
  });

  test('an already lexed line is read again from its text when it holds an entity', () => {
    const command = 'cd /repo &amp;&amp; make test';
    assert.equal(actOf(command, 'posix', undefined, lex(command, 'posix')), 'cd /repo && make test');
  });

  test('PowerShell lines are left as written (its & is the call operator)', () => {
    assert.notEqual(actOf('echo a &amp;&amp; echo b', 'pwsh'), actOf('echo a && echo b', 'pwsh'));
  });
});
