/**
 * The README's install and web command blocks, read the way the suites read
 * them (test/host/lib/readme.ts): `npm run test:host` runs them from a clean
 * clone and `npm run test:web` launches the web UI with them. These checks run
 * in `npm test`, without a host: that the blocks exist, say what the README
 * promises, and are parsed into the commands the suites run.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { parse } from 'yaml';

import { infraOverlay } from '../host/lib/dsh.js';
import { commandsOf, readmeBlock, withoutComment } from '../host/lib/readme.js';
import { LAUNCH_FLAGS, tarballAddCommands, webCommands } from '../web/lib/web-host.js';
import { repositorySlug } from '../../tools/release/checks.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; version: string; repository: unknown };

describe('the README\'s command blocks', () => {
  test('the tarball block clones package.json\'s repository and adds the tarball npm pack names for this version', () => {
    const commands = commandsOf(readmeBlock('tarball')).map(withoutComment);
    assert.deepEqual(commands, [
      `git clone https://github.com/${repositorySlug(pkg.repository) ?? '?'}.git`,
      'cd dsh-repeat-tool-breaker',
      'npm ci',
      'npm pack',
      `dsh plugin --profile web add ./${pkg.name}-${pkg.version}.tgz`,
    ]);
    assert.deepEqual(tarballAddCommands(), [`dsh plugin --profile web add ./${pkg.name}-${pkg.version}.tgz`]);
  });

  test('the web block writes the hmr rows the headless boots use and ends with dsh web reading them', () => {
    const { setup, launch } = webCommands();
    assert.equal(setup.length, 2, JSON.stringify(setup));
    assert.equal(setup[0], 'mkdir -p ~/.dsh');
    const heredoc = /^cat > (\S+) <<'EOF'\n([\s\S]*)\nEOF$/.exec(setup[1] ?? '');
    assert.ok(heredoc !== null, `the second command writes a file from a heredoc: ${JSON.stringify(setup[1])}`);
    assert.deepEqual(parse(heredoc[2] ?? ''), parse(infraOverlay('/unused', { plainLog: false })), 'the same rows as the boot suite\'s overlay');
    assert.equal(launch, `dsh web --patch ${heredoc[1] ?? '?'}`, 'the launch reads that file');
    assert.deepEqual(LAUNCH_FLAGS, ['--no-open', '--host', '127.0.0.1', '--port', '0'], 'the suites add only loopback, a free port and no browser');
  });

  test('the web block is printed twice (Quick start, the web section), identically', () => {
    assert.equal(readme.match(/^<!-- commands: web /gm)?.length, 2);
    assert.doesNotThrow(() => readmeBlock('web'));
    const altered = readme.replace('dsh web --patch ~/.dsh/rc8-web.patch.yml\n```\n\nthen open', 'dsh web\n```\n\nthen open');
    assert.notEqual(altered, readme, 'the second copy is the one before "then open"');
    assert.throws(() => readmeBlock('web', altered), /prints the "web" block 2 times, and the copies differ/);
  });

  test('the git blocks: the GitHub source is the release tag of package.json\'s repository, the local one the same tag in the clone', () => {
    const tag = `v${pkg.version}`;
    assert.deepEqual(commandsOf(readmeBlock('git-release')), [`dsh plugin --profile web add github:${repositorySlug(pkg.repository) ?? '?'}#${tag}`]);
    assert.deepEqual(commandsOf(readmeBlock('git-local')).map(withoutComment), ['npm run release:tag', `dsh plugin --profile web add "git+file://$PWD#${tag}"`]);
  });

  test('the README says plainly what the npm registry holds, before any install command', () => {
    const plain = readme.indexOf('**The npm registry holds `dsh-repeat-tool-breaker` 0.5.2 only**');
    assert.notEqual(plain, -1, 'the sentence is there');
    assert.ok(plain < readme.indexOf('<!-- commands: '), 'and comes before the first command block');
  });

  test('a missing block is named in the error', () => {
    assert.throws(() => readmeBlock('no-such-block'), /no block marked <!-- commands: no-such-block -->/);
  });
});

describe('commandsOf', () => {
  test('keeps a heredoc whole with its command, drops comment and blank lines, and withoutComment keeps a # inside a word', () => {
    const block = "# a comment\n\ncat > f <<'EOF'\n# kept: inside the heredoc\nx: 1\nEOF\ndsh plugin add \"git+file://$PWD#v1\"   # trailing note\n";
    const commands = commandsOf(block);
    assert.deepEqual(commands, ["cat > f <<'EOF'\n# kept: inside the heredoc\nx: 1\nEOF", 'dsh plugin add "git+file://$PWD#v1"   # trailing note']);
    assert.equal(withoutComment(commands[1] ?? ''), 'dsh plugin add "git+file://$PWD#v1"');
    assert.throws(() => commandsOf("cat <<'EOF'\nno end\n"), /has no EOF line/);
  });
});
