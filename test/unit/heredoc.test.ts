/**
 * The command as the target readers see it once the here-documents that are
 * only written out (P10) or recorded as a message (P12) lose their bodies
 * (shell/heredoc.ts). deviations.test.ts holds the decisions through the
 * fingerprints; this file holds the text each leaves, and the readings of
 * the line the fingerprints cannot tell apart.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { withoutWrittenHeredocs } from '../../src/lib/shell/heredoc.js';

/** Whether the body holding `needle` was taken out. */
const cut = (command: string, needle = 'https://a.com/x'): boolean => !withoutWrittenHeredocs(command).includes(needle);

describe('withoutWrittenHeredocs: the text left', () => {
  test('a written body goes, its operator and delimiter lines stay, and what follows is kept as written', () => {
    assert.equal(withoutWrittenHeredocs("cat > f.py <<'EOF'\nget('https://a.com/x')\nEOF\necho done"), "cat > f.py <<'EOF'\nEOF\necho done");
  });

  test('two written bodies both go, the text between them kept', () => {
    assert.equal(withoutWrittenHeredocs('cat <<A > a.md; cat <<B > b.md\nhttps://a.com/x\nA\nhttps://b.com/y\nB\nls'), 'cat <<A > a.md; cat <<B > b.md\nA\nB\nls');
  });

  test('a command with no here-document, or only one that runs its body, comes back as it was', () => {
    for (const command of ['curl https://a.com/x', "python3 - <<'EOF'\nurlopen('https://a.com/x')\nEOF", '']) {
      assert.equal(withoutWrittenHeredocs(command), command, JSON.stringify(command));
    }
  });
});

describe('withoutWrittenHeredocs: what the line does with a body', () => {
  test('a writer spelled in quotes is the writer', () => {
    assert.equal(cut(`"cat" > f.md <<'EOF'\nhttps://a.com/x\nEOF`), true);
    assert.equal(cut(`'tee' f.md <<'EOF'\nhttps://a.com/x\nEOF`), true);
  });

  test('a body piped on with |& is run, as one piped with |', () => {
    assert.equal(cut("cat <<'EOF' |& sh\ncurl https://a.com/x\nEOF"), false);
    assert.equal(cut("cat <<'EOF' | sh\ncurl https://a.com/x\nEOF"), false);
  });

  test('two bodies on one piped line are both run', () => {
    assert.equal(cut("cat <<'A' <<'B' | sh\ncurl https://b.com/y\nA\ncurl https://a.com/x\nB"), false, 'the second');
    assert.equal(cut("cat <<'A' <<'B' | sh\ncurl https://a.com/x\nA\ncurl https://b.com/y\nB"), false, 'the first');
  });

  test('a commit of two messages: the second substitution is read in the command around it, as the first', () => {
    const command = `git commit -m "$(cat <<'A'\nTitle\nA\n)" -m "$(cat <<'B'\nSee https://a.com/x\nB\n)"`;
    assert.equal(cut(command), true);
  });

  test("a substitution before a recorder's subcommand is no message; one after it is, in the same command", () => {
    assert.equal(cut(`git -c "$(cat <<'EOF'\nhttps://a.com/x\nEOF\n)" commit -m x`), false, 'the value of -c');
    const both = `git -c "$(cat <<'A'\nhttps://b.com/y\nA\n)" commit -m "$(cat <<'B'\nhttps://a.com/x\nB\n)"`;
    assert.equal(cut(both, 'https://b.com/y'), false, 'the value of -c, first');
    assert.equal(cut(both), true, 'the message after commit, second');
  });
});
