/**
 * Install suite: the README's install commands, run as printed, from a clean
 * clone of this tree, each path into a fresh `web` profile under its own
 * DSH_HOME; then the README's web commands start `dsh web` (the `hmr` fix of
 * DSH 0.1.0-rc.8 included), the plugin's settings card is served for that
 * profile, and a session with a scripted model gates at the cap.
 *
 *   tarball   the "tarball" block: git clone, npm ci, npm pack, dsh plugin add
 *             ./dsh-repeat-tool-breaker-<version>.tgz. The one change: the
 *             GitHub URL is swapped for a bare repository holding this working
 *             tree (test/host/lib/checkout.ts), since only loopback is reachable.
 *   git       the "git-local" block in that clone: `npm run release:tag` (the
 *             script the release workflow runs) makes the release tag, and
 *             `dsh plugin add "git+file://$PWD#v<version>"` installs it with no
 *             build. The "git-release" block's GitHub source must be the same
 *             tag of package.json's repository.
 *   refusal   a source commit by git: pnpm 10 refuses to build it, as the
 *             README says.
 *
 * Every process is stopped by its id; every server listens on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';

import { repositorySlug } from '../../../tools/release/checks.js';
import { createSession, prompt, turnsEnded } from '../../web/lib/sessions.js';
import { applyWebFix, PROFILE, startWebHost } from '../../web/lib/web-host.js';
import { upstreamOfWorkingTree, type Upstream } from '../lib/checkout.js';
import { shellEnv } from '../lib/dsh.js';
import { pluginUnderTest, REPO_DIR, shippedCaps, WORK_DIR, type Caps } from '../lib/env.js';
import { startMockModel, type ScriptedCall } from '../lib/mock-model.js';
import { commandsOf, describeRun, readmeBlock, README, runCommands, withoutComment } from '../lib/readme.js';

const plugin = pluginUnderTest();
const ROOT = join(WORK_DIR, 'install');
const PNPM_STORE = join(ROOT, 'pnpm-store');
const NS = 'repeat-tool-breaker';
const BLOCKED = /^Error: REPEAT_TOOL_BLOCKED/;
const manifest = JSON.parse(readFileSync(join(REPO_DIR, 'package.json'), 'utf8')) as { name: string; version: string; repository?: unknown };
const slug = repositorySlug(manifest.repository);
const GITHUB_URL = `https://github.com/${slug ?? '?'}.git`;
const TAG = `v${manifest.version}`;

let upstream: Upstream;
let caps: Caps;
/** The clone the tarball block made (`cd dsh-repeat-tool-breaker`), reused by the git path. */
const CLONE = join(ROOT, 'tarball', 'dsh-repeat-tool-breaker');

function homeOf(path: string): string {
  return join(ROOT, path, 'home');
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
}

/** The profile lists the package as a bundle, and what pnpm put there is this tree's version. */
function assertInstalled(home: string): Record<string, unknown> {
  const profile = join(home, 'profiles', PROFILE);
  const profileManifest = JSON.parse(readFileSync(join(profile, 'package.json'), 'utf8')) as { dsh?: { profile?: { bundles?: string[] } } };
  assert.ok(profileManifest.dsh?.profile?.bundles?.includes(manifest.name), `${manifest.name} is a bundle of the profile: ${JSON.stringify(profileManifest.dsh)}`);
  const installed = JSON.parse(readFileSync(join(profile, 'node_modules', manifest.name, 'package.json'), 'utf8')) as Record<string, unknown>;
  assert.equal(installed.version, manifest.version, 'the profile has this version, not the registry\'s 0.5.2');
  assert.ok(existsSync(join(profile, 'node_modules', manifest.name, 'dist', 'client.js')), 'with the card\'s bundle');
  return installed;
}

function identicalEcho(n: number): ScriptedCall[] {
  return Array.from({ length: n }, (_, i) => ({ name: 'bash', arguments: { command: 'echo install-check', description: `print it, try ${i + 1}` } }));
}

/**
 * The README's web commands for the profile at `home`, then: the boot manifest lists the card,
 * `/plugins/<name>/client.js` serves the installed bundle, the settings namespace takes
 * `onLimit: deny` as the card would save it, and a session's identical calls are blocked at the cap.
 */
async function serveAndGate(home: string, label: string): Promise<void> {
  await applyWebFix({ home, cwd: CLONE, pnpmStore: PNPM_STORE });
  const n = caps.exact + 1;
  const model = await startMockModel({ script: identicalEcho(n), maxRequests: 400, maxSeconds: 300 });
  const workspace = join(ROOT, label, 'workspace');
  mkdirSync(workspace, { recursive: true });
  const host = await startWebHost({ home, cwd: workspace, modelUrl: model.url, pnpmStore: PNPM_STORE, timeoutMs: 90_000 });
  try {
    const index = await (await fetch(`${host.url}/`)).text();
    assert.match(index, new RegExp(`/plugins/${manifest.name}/client\\.js\\?rev=[0-9a-f]+`), 'the page\'s boot manifest lists the card\'s bundle');
    const response = await fetch(`${host.url}/plugins/${manifest.name}/client.js`);
    assert.equal(response.status, 200, `GET /plugins/${manifest.name}/client.js`);
    const served = await response.text();
    const bundle = readFileSync(join(home, 'profiles', PROFILE, 'node_modules', manifest.name, 'dist', 'client.js'), 'utf8');
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
  'the README\'s install paths, run as printed from a clean clone, each into a fresh web profile',
  { skip: plugin.label === 'reference' ? 'the install paths are this repository\'s' : undefined },
  () => {
    before(async () => {
      caps = await shippedCaps(plugin);
      rmSync(ROOT, { recursive: true, force: true });
      mkdirSync(join(ROOT, 'tarball'), { recursive: true });
      upstream = upstreamOfWorkingTree(join(ROOT, 'upstream'));
    });

    test('tarball: the README\'s git clone, npm ci, npm pack and dsh plugin add put this version into the profile as a bundle', async (t) => {
      assert.ok(slug !== undefined, 'package.json names its GitHub repository');
      const block = readmeBlock('tarball');
      assert.equal(block.split(GITHUB_URL).length - 1, 1, `the block clones ${GITHUB_URL}, once`);
      const commands = commandsOf(block).map((command) => command.replace(GITHUB_URL, upstream.url));
      const run = await runCommands(commands, { cwd: join(ROOT, 'tarball'), env: shellEnv(homeOf('tarball'), PNPM_STORE), timeoutMs: 600_000 });
      assert.equal(run.code, 0, `the README's tarball block failed: ${describeRun(run)}`);
      assert.equal(git(CLONE, 'rev-parse', 'HEAD'), upstream.commit, 'the block ran in the clone it made');
      assert.ok(existsSync(join(CLONE, `${manifest.name}-${manifest.version}.tgz`)), 'npm pack wrote the tarball the block adds');
      assertInstalled(homeOf('tarball'));
      t.diagnostic(`tarball block: ${(run.ms / 1000).toFixed(1)} s`);
    });

    test('tarball: the README\'s web commands start dsh web, which serves the card and gates a session', async () => {
      assert.ok(existsSync(join(homeOf('tarball'), 'profiles', PROFILE)), 'the tarball path installed a profile');
      await serveAndGate(homeOf('tarball'), 'tarball');
    });

    test('git: in that clone, npm run release:tag makes the release tag and dsh plugin add "git+file://$PWD#<tag>" installs it with no build', async (t) => {
      const local = commandsOf(readmeBlock('git-local'));
      // The script the release workflow runs, then the tag of this version.
      assert.deepEqual(local.map(withoutComment), ['npm run release:tag', `dsh plugin --profile web add "git+file://$PWD#${TAG}"`]);
      const run = await runCommands(local, { cwd: CLONE, env: shellEnv(homeOf('git'), PNPM_STORE), timeoutMs: 300_000 });
      assert.equal(run.code, 0, `the README's git-local block failed: ${describeRun(run)}`);
      assert.doesNotMatch(`${run.stdout}\n${run.stderr}`, /ERR_PNPM/, 'pnpm had nothing to refuse');
      assert.equal(git(CLONE, 'rev-parse', `${TAG}^{commit}^`), upstream.commit, `${TAG} is a child of the cloned commit`);
      assert.equal(git(CLONE, 'status', '--porcelain'), '', 'and the clone is left clean');
      const installed = assertInstalled(homeOf('git'));
      assert.equal((installed.scripts as Record<string, unknown> | undefined)?.prepare, undefined, 'pnpm installed the tag\'s package.json, which has no prepare script');
      t.diagnostic(`git-local block: ${(run.ms / 1000).toFixed(1)} s`);
    });

    test('git: the README\'s GitHub command installs the same tag, of the repository package.json names', () => {
      assert.deepEqual(commandsOf(readmeBlock('git-release')), [`dsh plugin --profile web add github:${slug ?? '?'}#${TAG}`]);
    });

    test('git: the README\'s web commands start dsh web, which serves the card and gates a session', async () => {
      assert.ok(existsSync(join(homeOf('git'), 'profiles', PROFILE)), 'the git path installed a profile');
      await serveAndGate(homeOf('git'), 'git');
    });

    test('a source commit by git is refused by pnpm 10 with ERR_PNPM_GIT_DEP_PREPARE_NOT_ALLOWED, as the README says', async () => {
      assert.match(readFileSync(README, 'utf8'), /ERR_PNPM_GIT_DEP_PREPARE_NOT_ALLOWED/, 'the README names the refusal');
      const home = homeOf('refusal');
      const run = await runCommands([`dsh plugin --profile web add "git+file://${CLONE}#${upstream.commit}"`], {
        cwd: ROOT,
        env: shellEnv(home, PNPM_STORE),
        timeoutMs: 120_000,
      });
      assert.notEqual(run.code, 0, 'dsh plugin add failed');
      assert.match(`${run.stdout}\n${run.stderr}`, /ERR_PNPM_GIT_DEP_PREPARE_NOT_ALLOWED/, describeRun(run));
      const profileManifest = JSON.parse(readFileSync(join(home, 'profiles', PROFILE, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
      assert.deepEqual(profileManifest.dependencies, {}, 'nothing was installed');
    });
  },
);
