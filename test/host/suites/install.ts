/**
 * Install suite: the README's Quick start, run as printed, as a user would in
 * one terminal, from a clean clone of this tree; then the other install path
 * the README prints, and its web UI.
 *
 *   quick start  the "dsh", "hmr", "plugin" and "verify" blocks in one shell:
 *                git clone, DSH 0.1.0-rc.8 installed from the host tests'
 *                lockfile into ~/dsh-rc8 (Node 22 and pnpm with it; nothing of
 *                test/host on PATH), the `hmr` row back on in
 *                $DSH_HOME/cordis.patch.yml, npm ci, npm pack, `dsh plugin add`
 *                into the headless and web profiles, `--dump-config` and a
 *                headless turn against a scripted model. HOME is a scratch
 *                directory and DSH_HOME is unset, so DSH uses ~/.dsh as it does
 *                for a user. The one change: the GitHub URL is swapped for a bare
 *                repository holding this working tree (test/host/lib/checkout.ts),
 *                since only loopback is reachable. Then the "web" block, `dsh
 *                web`, from that install: the card is served, the settings
 *                namespace takes a value, a session gates at the cap.
 *   git          the "git-local" block in that clone: `npm run release:tag` (the
 *                script the release workflow runs) makes the release tag, and
 *                `dsh plugin add "git+file://$PWD#v<version>"` installs it with no
 *                build. The "git-release" block's GitHub source must be the same
 *                tag of package.json's repository.
 *   refusal      a source commit by git: pnpm 10 refuses to build it, as the
 *                README says.
 *
 * Every process is stopped by its id; every server listens on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { before, describe, test } from 'node:test';

import { repositorySlug } from '../../../tools/release/checks.js';
import { createSession, prompt, turnsEnded } from '../../web/lib/sessions.js';
import { applyWebFix, startWebHost } from '../../web/lib/web-host.js';
import { upstreamOfWorkingTree, type Upstream } from '../lib/checkout.js';
import { shellEnv } from '../lib/dsh.js';
import { HOST_MODULES, pluginUnderTest, REPO_DIR, shippedCaps, WORK_DIR, type Caps } from '../lib/env.js';
import { startMockModel, type ScriptedCall } from '../lib/mock-model.js';
import { commandsOf, describeRun, quickStartCommands, readmeBlock, README, runCommands, withoutComment } from '../lib/readme.js';
import { EXPECTED_DSH, EXPECTED_NODE } from '../lib/setup.js';

const plugin = pluginUnderTest();
const ROOT = join(WORK_DIR, 'install');
const PNPM_STORE = join(ROOT, 'pnpm-store');
const NS = 'repeat-tool-breaker';
const BLOCKED = /^Error: REPEAT_TOOL_BLOCKED/;
const manifest = JSON.parse(readFileSync(join(REPO_DIR, 'package.json'), 'utf8')) as { name: string; version: string; repository?: unknown };
const slug = repositorySlug(manifest.repository);
const GITHUB_URL = `https://github.com/${slug ?? '?'}.git`;
const TAG = `v${manifest.version}`;

/** Where the Quick start runs: the terminal's directory, and the user's home (DSH_HOME unset, so ~/.dsh). */
const QUICK = join(ROOT, 'quick');
const USER_HOME = join(QUICK, 'user-home');
const QUICK_HOME = join(USER_HOME, '.dsh');
/** What the README's `export PATH=…` puts first: the DSH the Quick start installed. */
const README_BIN = join(USER_HOME, 'dsh-rc8', 'node_modules', '.bin');
/** The clone the Quick start made (`cd dsh-repeat-tool-breaker`), reused by the git path. */
const CLONE = join(QUICK, 'dsh-repeat-tool-breaker');

let upstream: Upstream;
let caps: Caps;

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
}

/**
 * A user's terminal for the Quick start: the suite's environment as `shellEnv` cleans it, but the
 * user's own PATH (nothing of test/host on it: the README installs its own DSH, Node 22 and pnpm),
 * a scratch HOME, no DSH_HOME, and a DeepSeek endpoint and key for the headless check.
 */
function terminalEnv(modelUrl: string): NodeJS.ProcessEnv {
  const env = shellEnv(QUICK_HOME, PNPM_STORE);
  delete env.DSH_HOME;
  const userPath = (process.env.PATH ?? '/usr/bin:/bin').split(delimiter).filter((dir) => !dir.startsWith(HOST_MODULES));
  return { ...env, HOME: USER_HOME, PATH: userPath.join(delimiter), DEEPSEEK_BASE_URL: modelUrl, DEEPSEEK_API_KEY: 'sk-mock-not-a-key' };
}

/** The profile lists the package as a bundle, and what pnpm put there is this tree's version. */
function assertInstalled(home: string, profile: string): Record<string, unknown> {
  const dir = join(home, 'profiles', profile);
  const profileManifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dsh?: { profile?: { bundles?: string[] } } };
  assert.ok(profileManifest.dsh?.profile?.bundles?.includes(manifest.name), `${manifest.name} is a bundle of the ${profile} profile: ${JSON.stringify(profileManifest.dsh)}`);
  const installed = JSON.parse(readFileSync(join(dir, 'node_modules', manifest.name, 'package.json'), 'utf8')) as Record<string, unknown>;
  assert.equal(installed.version, manifest.version, 'the profile has this version, not the registry\'s 0.5.2');
  assert.ok(existsSync(join(dir, 'node_modules', manifest.name, 'dist', 'client.js')), 'with the card\'s bundle');
  return installed;
}

function versionOf(dir: string, name: string): unknown {
  return (JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')) as { version?: unknown }).version;
}

function identicalEcho(n: number): ScriptedCall[] {
  return Array.from({ length: n }, (_, i) => ({ name: 'bash', arguments: { command: 'echo install-check', description: `print it, try ${i + 1}` } }));
}

/**
 * The README's `dsh web` for the profile at `home`, from the Quick start's DSH, then: the boot
 * manifest lists the card, `/plugins/<name>/client.js` serves the installed bundle, the settings
 * namespace takes `onLimit: deny` as the card would save it, and a session's identical calls are
 * blocked at the cap.
 */
async function serveAndGate(home: string, label: string): Promise<void> {
  assert.ok(existsSync(join(home, 'cordis.patch.yml')), 'the hmr block wrote $DSH_HOME/cordis.patch.yml');
  const n = caps.exact + 1;
  const model = await startMockModel({ script: identicalEcho(n), maxRequests: 400, maxSeconds: 300 });
  const workspace = join(ROOT, label, 'workspace');
  mkdirSync(workspace, { recursive: true });
  const host = await startWebHost({ home, cwd: workspace, modelUrl: model.url, pnpmStore: PNPM_STORE, timeoutMs: 90_000, binDir: README_BIN });
  try {
    const index = await (await fetch(`${host.url}/`)).text();
    assert.match(index, new RegExp(`/plugins/${manifest.name}/client\\.js\\?rev=[0-9a-f]+`), 'the page\'s boot manifest lists the card\'s bundle');
    const response = await fetch(`${host.url}/plugins/${manifest.name}/client.js`);
    assert.equal(response.status, 200, `GET /plugins/${manifest.name}/client.js`);
    const served = await response.text();
    const bundle = readFileSync(join(home, 'profiles', 'web', 'node_modules', manifest.name, 'dist', 'client.js'), 'utf8');
    assert.ok(served === bundle, 'the host serves the bundle installed in the profile, byte for byte');
    assert.ok(served.startsWith(`// ${manifest.name} ${manifest.version}: `), `the bundle is this version's: ${served.slice(0, 120)}`);

    const saved = await host.rpc('settings.update', { ns: NS, patch: { onLimit: 'deny' } });
    assert.equal(saved.ok, true, `the host serves the plugin's settings namespace: ${JSON.stringify(saved).slice(0, 500)}`);

    const session = await createSession(host, workspace);
    await prompt(host, session, 'Print the marker until the breaker stops you.');
    const log = await turnsEnded(home, session, 1, 120_000);
    const steps = log.steps.filter((s) => s.arguments.command === 'echo install-check');
    assert.deepEqual(
      steps.map((s) => (s.isError ? (BLOCKED.test(s.text) ? 'blocked' : `error: ${s.text.slice(0, 80)}`) : 'ran')),
      [...Array.from({ length: caps.exact - 1 }, () => 'ran'), 'blocked', 'blocked'],
      `calls 1–${caps.exact - 1} ran; from the cap (${caps.exact}) on, onLimit: deny blocks`,
    );
    assert.equal(log.approvalsAsked.length, 0, 'deny asks nobody');
  } catch (error) {
    if (error instanceof Error) error.message += `\n--- ${host.command} (tail) ---\n${host.output().slice(-3000)}`;
    throw error;
  } finally {
    await host.stop();
    await model.close();
  }
}

describe(
  'the README\'s Quick start and install paths, run as printed from a clean clone',
  { skip: plugin.label === 'reference' ? 'the install paths are this repository\'s' : undefined },
  () => {
    before(async () => {
      caps = await shippedCaps(plugin);
      rmSync(ROOT, { recursive: true, force: true });
      mkdirSync(USER_HOME, { recursive: true });
      upstream = upstreamOfWorkingTree(join(ROOT, 'upstream'));
    });

    test('quick start: the four blocks in one shell install DSH from the lockfile, add the plugin to both profiles and show it mounted and loaded', async (t) => {
      assert.ok(slug !== undefined, 'package.json names its GitHub repository');
      assert.equal(readmeBlock('dsh').split(GITHUB_URL).length - 1, 1, `the dsh block clones ${GITHUB_URL}, once`);
      const commands = quickStartCommands().map((command) => command.replace(GITHUB_URL, upstream.url));
      const model = await startMockModel({ script: [], finalText: 'ok', maxRequests: 20, maxSeconds: 900 });
      let stdout = '';
      try {
        const run = await runCommands(commands, { cwd: QUICK, env: terminalEnv(model.url), timeoutMs: 900_000 });
        assert.equal(run.code, 0, `the README's Quick start failed: ${describeRun(run)}`);
        stdout = run.stdout;
        t.diagnostic(`quick start: ${(run.ms / 1000).toFixed(1)} s`);
      } finally {
        await model.close();
      }
      assert.match(stdout, new RegExp(`^${EXPECTED_NODE.replace(/\./g, '\\.')}$`, 'm'), 'node --version: the Node 22 the README installed, first on PATH');
      assert.ok(readFileSync(README, 'utf8').includes(`\`${EXPECTED_NODE}\``), `the README says node --version prints ${EXPECTED_NODE}`);
      assert.match(stdout, new RegExp(`^${EXPECTED_DSH.replace(/\./g, '\\.')}$`, 'm'), 'dsh --version');
      assert.match(stdout, /^- id: repeat-tool-breaker\n {2}name: dsh-repeat-tool-breaker$/m, '--dump-config shows the row, as the README prints it');
      assert.match(stdout, /^ok$/m, 'the headless turn printed the model\'s answer');

      const dsh = join(USER_HOME, 'dsh-rc8');
      assert.equal(versionOf(dsh, '@deepseek-ai/dsh'), EXPECTED_DSH, 'the DSH in ~/dsh-rc8 is the README\'s');
      assert.equal(versionOf(dsh, '@deepseek-ai/cordis-plugin-hmr'), '1.0.17', 'with the hmr plugin pinned');
      assert.equal(git(CLONE, 'rev-parse', 'HEAD'), upstream.commit, 'the blocks ran in the clone they made');
      assert.ok(existsSync(join(CLONE, `${manifest.name}-${manifest.version}.tgz`)), 'npm pack wrote the tarball the block adds');
      assert.ok(existsSync(join(QUICK_HOME, 'cordis.patch.yml')), 'the hmr block wrote ~/.dsh/cordis.patch.yml, DSH_HOME being unset');
      assertInstalled(QUICK_HOME, 'headless');
      assertInstalled(QUICK_HOME, 'web');
    });

    test('quick start: the README\'s dsh web, from that install, serves the card and gates a session', async () => {
      assert.ok(existsSync(join(QUICK_HOME, 'profiles', 'web')), 'the Quick start installed the web profile');
      await serveAndGate(QUICK_HOME, 'quick');
    });

    test('git: in that clone, npm run release:tag makes the release tag and dsh plugin add "git+file://$PWD#<tag>" installs it with no build', async (t) => {
      const local = commandsOf(readmeBlock('git-local'));
      // The script the release workflow runs, then the tag of this version.
      assert.deepEqual(local.map(withoutComment), ['npm run release:tag', `dsh plugin --profile web add "git+file://$PWD#${TAG}"`]);
      const home = join(ROOT, 'git', 'home');
      const env = shellEnv(home, PNPM_STORE);
      env.PATH = `${README_BIN}${delimiter}${env.PATH ?? ''}`;
      const run = await runCommands(local, { cwd: CLONE, env, timeoutMs: 300_000 });
      assert.equal(run.code, 0, `the README's git-local block failed: ${describeRun(run)}`);
      assert.doesNotMatch(`${run.stdout}\n${run.stderr}`, /ERR_PNPM/, 'pnpm had nothing to refuse');
      assert.equal(git(CLONE, 'rev-parse', `${TAG}^{commit}^`), upstream.commit, `${TAG} is a child of the cloned commit`);
      assert.equal(git(CLONE, 'status', '--porcelain'), '', 'and the clone is left clean');
      const installed = assertInstalled(home, 'web');
      assert.equal((installed.scripts as Record<string, unknown> | undefined)?.prepare, undefined, 'pnpm installed the tag\'s package.json, which has no prepare script');
      t.diagnostic(`git-local block: ${(run.ms / 1000).toFixed(1)} s`);
    });

    test('git: the README\'s GitHub command installs the same tag, of the repository package.json names', () => {
      assert.deepEqual(commandsOf(readmeBlock('git-release')), [`dsh plugin --profile web add github:${slug ?? '?'}#${TAG}`]);
    });

    test('git: with the README\'s hmr block in that DSH_HOME, dsh web serves the card and gates a session', async () => {
      const home = join(ROOT, 'git', 'home');
      assert.ok(existsSync(join(home, 'profiles', 'web')), 'the git path installed a profile');
      await applyWebFix({ home, cwd: CLONE, pnpmStore: PNPM_STORE });
      await serveAndGate(home, 'git');
    });

    test('a source commit by git is refused by pnpm 10 with ERR_PNPM_GIT_DEP_PREPARE_NOT_ALLOWED, as the README says', async () => {
      assert.match(readFileSync(README, 'utf8'), /ERR_PNPM_GIT_DEP_PREPARE_NOT_ALLOWED/, 'the README names the refusal');
      const home = join(ROOT, 'refusal', 'home');
      const run = await runCommands([`dsh plugin --profile web add "git+file://${CLONE}#${upstream.commit}"`], {
        cwd: ROOT,
        env: shellEnv(home, PNPM_STORE),
        timeoutMs: 120_000,
      });
      assert.notEqual(run.code, 0, 'dsh plugin add failed');
      assert.match(`${run.stdout}\n${run.stderr}`, /ERR_PNPM_GIT_DEP_PREPARE_NOT_ALLOWED/, describeRun(run));
      const profileManifest = JSON.parse(readFileSync(join(home, 'profiles', 'web', 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
      assert.deepEqual(profileManifest.dependencies, {}, 'nothing was installed');
    });
  },
);
