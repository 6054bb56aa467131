/**
 * Which calls change the workspace: the evidence that a run after them is a new
 * experiment. Where in doubt, no.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { callChanges, commandChanges, filePathOf } from '../../src/lib/call/change.js';

describe('commandChanges: shell lines that write files', () => {
  const writes = [
    "cat <<'EOF' > grid_transform.py\ndef solve(): pass\nEOF",
    'echo x >> notes.txt',
    'python3 gen.py | tee out.csv',
    'curl -s https://a.com/f -o f.bin',
    "sed -i 's/a/b/' src/x.py",
    "sed -i.bak 's/a/b/' src/x.py",
    "perl -pi -e 's/a/b/' x",
    'git checkout lib/matplotlib/axes/_base.py',
    'git stash',
    'cd /repo && git apply fix.patch',
    'rm -f model.bin && python train.py',
    'FOO=1 sudo mv a b',
    'touch marker',
    // An install changes what a later run finds (issue 40).
    'pip install pyyaml',
    'python3 -m pip install -q requests',
    'npm install left-pad',
    'apt-get install -y libxml2-dev && pip install lxml',
    'go get github.com/stretchr/testify',
    'cargo add serde',
  ];
  for (const command of writes) test(`writes: ${JSON.stringify(command)}`, () => assert.equal(commandChanges(command), true));

  const reads = [
    'python reproduce.py',
    'cat README.md',
    'grep -rn TODO src',
    'ls -la model* && fasttext test model.bin test.txt',
    'git status',
    'git diff HEAD',
    "sed -n '10,20p' x.py",
    'python -c "print(1)" > /dev/null',
    'pytest -q 2>&1',
    // Asking a package manager is no install.
    'pip list',
    'pip show pyyaml',
    'npm ls',
    'go test ./...',
    'cargo build',
    'apt-cache search libxml2',
  ];
  for (const command of reads) test(`reads only: ${JSON.stringify(command)}`, () => assert.equal(commandChanges(command), false));
});

describe('callChanges: file tools and shells', () => {
  test("DSH's edit, write and str_replace_editor write; its view and a read do not", () => {
    assert.equal(callChanges('edit', { file_path: 'a.ts', old_string: 'x', new_string: 'y' }, undefined), true);
    assert.equal(callChanges('write', { file_path: 'a.ts', content: '' }, undefined), true);
    assert.equal(callChanges('str_replace_editor', { command: 'str_replace', path: 'a.ts' }, undefined), true);
    assert.equal(callChanges('str_replace_editor', { command: 'view', path: 'a.ts' }, undefined), false);
    assert.equal(callChanges('read', { file_path: 'a.ts' }, undefined), false);
  });

  test('a shell call changes what its command changes; without a command, nothing', () => {
    assert.equal(callChanges('bash', { command: 'echo a > b' }, 'echo a > b'), true);
    assert.equal(callChanges('bash', {}, undefined), false);
  });
});

describe('filePathOf', () => {
  test("reads DSH's file_path first, then path and filePath; an empty or odd value is none", () => {
    assert.equal(filePathOf({ file_path: 'a', path: 'b' }), 'a');
    assert.equal(filePathOf({ path: 'b' }), 'b');
    assert.equal(filePathOf({ filePath: 'c' }), 'c');
    assert.equal(filePathOf({ file_path: '' }), undefined);
    assert.equal(filePathOf({ path: 3 }), undefined);
    assert.equal(filePathOf(null), undefined);
  });
});
