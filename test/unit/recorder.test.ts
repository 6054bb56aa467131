/**
 * The commands that record a text as a message (shell/recorder.ts, decision
 * P12): which ones are recorders, and when one reads its message from standard
 * input (a here-document fed to it is then written about, not run).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readsMessageFromInput, recordsMessage } from '../../src/lib/shell/recorder.js';

const words = (line: string): string[] => line.split(' ');

describe('recordsMessage: a commit, tag, note, merge or stash, and a gh pull request, issue or release', () => {
  test('each git subcommand that takes a message is a recorder', () => {
    for (const sub of ['commit', 'tag', 'notes', 'merge', 'stash']) assert.equal(recordsMessage(words(`git ${sub} -m x`)), true, sub);
  });

  test('git options before the subcommand are stepped over, the value of -C and -c with them', () => {
    assert.equal(recordsMessage(words('git -C repo commit -m x')), true);
    assert.equal(recordsMessage(words('git -c user.name=me commit -m x')), true);
    assert.equal(recordsMessage(words('git --no-pager -p tag -m x v1')), true);
    // Read as a flag without a value, `-c` would leave `tag` as the subcommand.
    assert.equal(recordsMessage(words('git -c tag push')), false, 'the value of -c is not the subcommand');
    assert.equal(recordsMessage(words('git -C commit push')), false, 'the value of -C is not the subcommand');
  });

  test('each gh command group that takes a body is a recorder', () => {
    for (const group of ['pr', 'issue', 'release']) assert.equal(recordsMessage(words(`gh ${group} create --body x`)), true, group);
    assert.equal(recordsMessage(words('gh api repos')), false);
  });

  test('other commands, other git subcommands and a bare git or gh are not', () => {
    assert.equal(recordsMessage(words('echo commit -m x')), false, 'only git names a git subcommand');
    assert.equal(recordsMessage(words('git push origin')), false);
    assert.equal(recordsMessage(['git']), false);
    assert.equal(recordsMessage(['gh']), false);
    assert.equal(recordsMessage(words('git --no-pager')), false, 'options and no subcommand');
  });
});

describe('readsMessageFromInput: a recorder whose message file is -', () => {
  test('every message-file option, written apart, glued or with =', () => {
    for (const option of ['-F', '--file', '--body-file', '--notes-file']) {
      assert.equal(readsMessageFromInput(words(`git commit ${option} -`)), true, `${option} -`);
      assert.equal(readsMessageFromInput(words(`git commit ${option}=-`)), true, `${option}=-`);
    }
    assert.equal(readsMessageFromInput(words('git commit -F-')), true);
    assert.equal(readsMessageFromInput(words('gh pr create --body-file -')), true);
  });

  test('a message from a file, or an option that is not a message file, is not standard input', () => {
    assert.equal(readsMessageFromInput(words('git commit --file=msg.txt')), false);
    assert.equal(readsMessageFromInput(words('git commit --file=m')), false, 'a one-character file name after =');
    assert.equal(readsMessageFromInput(words('git commit -F msg.txt')), false);
    assert.equal(readsMessageFromInput(words('git commit --cleanup=- -m x')), false, 'an option ending in =- that names no message file');
    assert.equal(readsMessageFromInput(words('git commit -m -')), false);
  });

  test('a command that is no recorder does not read a message, whatever its options', () => {
    assert.equal(readsMessageFromInput(words('grep -F -')), false);
    assert.equal(readsMessageFromInput(words('cat --file=-')), false);
  });
});
