/**
 * An install that says it installed nothing changed nothing
 * (result/installed.ts): its answer is read only for a line that does nothing
 * but install (call/change.ts changesByInstallsOnly), and only the package
 * manager's own words that nothing was to do, with none that something was
 * done, make it no change.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { installedNothing } from '../../src/lib/result/installed.js';
import { commandChanges } from '../../src/lib/call/change.js';
import { ANSWER_READ_LIMIT } from '../../src/lib/result/answer.js';
import { bash, bashResult, deniedAt, newHost, type CallOutcome } from '../support/session.js';

const result = (text: string): unknown => ({ content: [{ type: 'text', text }] });
const nothing = (command: string, text: string): boolean => installedNothing('bash', command, result(text));

const SATISFIED = 'Requirement already satisfied: requests in /usr/lib/python3/dist-packages (2.31.0)\nRequirement already satisfied: idna<4,>=2.5 in /usr/lib/python3/dist-packages (from requests) (3.6)';
const NPM = '\nup to date, audited 312 packages in 1s\n\n48 packages are looking for funding\n  run `npm fund` for details\n\nfound 0 vulnerabilities';
const APT = 'Reading package lists...\ncurl is already the newest version (7.81.0-1ubuntu1.16).\n0 upgraded, 0 newly installed, 0 to remove and 12 not upgraded.';

describe('an install answered that it installed nothing', () => {
  test("pip's, npm's, uv's and apt's own words that nothing was to do: no change, in any spelling of the install", () => {
    for (const command of ['pip install requests', 'pip3 install -U requests', 'python -m pip install requests', 'python3.11 -m pip install --upgrade requests', '.venv/bin/pip install requests', 'cd /repo && pip install -r requirements.txt', 'source .venv/bin/activate && pip install requests', 'pip install requests 2>&1']) {
      assert.equal(nothing(command, SATISFIED), true, command);
    }
    assert.equal(nothing('npm install', NPM), true);
    assert.equal(nothing('npm i', 'up to date in 412ms'), true);
    assert.equal(nothing('uv pip install requests', 'Resolved 5 packages in 12ms\nAudited 5 packages in 0.08ms'), true);
    assert.equal(nothing('sudo apt-get install -y curl', APT), true);
    assert.equal(nothing('DEBIAN_FRONTEND=noninteractive apt-get install -y curl', APT), true);
    assert.equal(nothing('conda install -y numpy', 'Collecting package metadata (current_repodata.json): done\nSolving environment: done\n\n# All requested packages already installed.\n'), true);
    assert.equal(nothing('yarn install', 'yarn install v1.22.19\n[1/4] Resolving packages...\nsuccess Already up-to-date.\nDone in 0.31s.'), true);
    assert.equal(nothing('pnpm install', 'Lockfile is up to date, resolution step is skipped\nAlready up to date\n\nDone in 512ms'), true);
    assert.equal(nothing('brew install jq', 'Warning: jq 1.7.1 is already installed and up-to-date.\nTo reinstall 1.7.1, run:\n  brew reinstall jq'), true);
  });

  test('an answer that says something was installed, upgraded or removed is a change', () => {
    assert.equal(nothing('pip install requests', `${SATISFIED}\nInstalling collected packages: urllib3\nSuccessfully installed urllib3-2.2.1`), false);
    assert.equal(nothing('pip install -U requests', `${SATISFIED}\nAttempting uninstall: requests\nSuccessfully uninstalled requests-2.28.0\nSuccessfully installed requests-2.31.0`), false);
    assert.equal(nothing('npm install', '\nadded 21 packages, and audited 333 packages in 3s\n\nfound 0 vulnerabilities'), false);
    assert.equal(nothing('npm install', 'up to date, audited 312 packages in 1s\nremoved 2 packages in 1s'), false);
    assert.equal(nothing('uv pip install requests', 'Resolved 5 packages in 12ms\nAudited 4 packages in 0.08ms\nInstalled 1 package in 3ms\n + idna==3.7'), false);
    assert.equal(nothing('apt-get install -y curl jq', 'curl is already the newest version.\n0 upgraded, 1 newly installed, 0 to remove and 12 not upgraded.\nSetting up jq (1.6-2.1ubuntu3) ...'), false);
    assert.equal(nothing('apt-get install -y curl', '1 upgraded, 0 newly installed, 0 to remove and 11 not upgraded.'), false);
    assert.equal(nothing('conda install -y numpy scipy', '# All requested packages already installed.\nPreparing transaction: done\nExecuting transaction: done'), false);
    assert.equal(nothing('yarn install', 'yarn install v1.22.19\n[4/4] Building fresh packages...\nsuccess Saved lockfile.\nsuccess Already up-to-date.'), false);
    assert.equal(nothing('pnpm install', 'Already up to date\nPackages: +2\n++\nProgress: resolved 2, reused 2, downloaded 0, added 2, done'), false);
    assert.equal(nothing('brew install jq ripgrep', 'Warning: jq 1.7.1 is already installed and up-to-date.\n==> Pouring ripgrep--14.1.0.arm64_sonoma.bottle.tar.gz'), false);
    assert.equal(nothing('apt-get remove -y curl', '0 upgraded, 0 newly installed, 1 to remove and 12 not upgraded.'), false);
  });

  test('an answer that says nothing either way is a change: a quiet install, an empty or unreadable answer, one past the read limit', () => {
    assert.equal(nothing('pip install -q requests', ''), false);
    assert.equal(nothing('pip install requests', 'Looking in indexes: https://pypi.org/simple'), false);
    assert.equal(installedNothing('bash', 'pip install requests', null), false);
    assert.equal(installedNothing('bash', 'pip install requests', { content: 'x' }), false);
    const throwing = { content: [{ get text(): string { throw new Error('hostile'); } }] };
    assert.equal(installedNothing('bash', 'pip install requests', throwing), false);
    assert.equal(nothing('pip install requests', `${SATISFIED}\n${'x'.repeat(ANSWER_READ_LIMIT)}`), false);
    assert.equal(nothing('pip install requests', 'see: Requirement already satisfied: requests'), false, 'only at the start of a line');
  });

  test('a line that does more than install, writes a file or pipes the answer is read as before: a change', () => {
    for (const command of ['pip install requests && python gen_code.py', 'pip install requests; sed -i s/a/b/ f.py', 'pip install requests | tail -3', 'pip install requests |& grep -v WARNING', 'pip install requests > pip.log', 'pip install requests && git checkout .', 'pytest && pip install requests']) {
      assert.equal(commandChanges(command), true, `${command} changes files as call/change.ts reads it`);
      assert.equal(nothing(command, SATISFIED), false, command);
    }
    assert.equal(nothing('pip download requests', SATISFIED), false, 'no install');
    assert.equal(nothing('cat requirements.txt', SATISFIED), false, 'no install');
  });

  test('a line that only installs: installs, a cd or a venv activated before them, the answer copied or discarded', () => {
    assert.equal(nothing('cd /repo && pip install -e . && npm install', `${SATISFIED}\n${NPM}`), true);
    assert.equal(nothing('. .venv/bin/activate; pip install requests', SATISFIED), true);
    assert.equal(nothing('source venv/bin/activate && pip install "requests>=2"', SATISFIED), true);
    assert.equal(nothing('pip install requests 2>/dev/null', SATISFIED), true);
    assert.equal(nothing('cd /repo', SATISFIED), false, 'no install');
    for (const command of ['pip install requests && echo done', 'source setup.sh && pip install requests', 'pip install $(cat reqs.txt)', 'pip install requests &', 'sudo -E pip install requests', 'pip install requests > log.txt 2>&1', '(pip install requests)', 'pip install requests;sed -i s/a/b/ f.py']) {
      assert.equal(nothing(command, SATISFIED), false, command);
    }
  });

  test('through the stale track: a test run between installs that installed nothing is the same run; one that installed starts it again', async () => {
    const test = (answer: string) => ({ ...bash('python -m pytest -q'), body: () => bashResult(4, answer) });
    const install = (command: string, answer: string) => ({ ...bash(command), body: () => bashResult(0, answer) });
    const MISSING = "E   ModuleNotFoundError: No module named 'yaml'";
    const turn = async (installAnswer: string): Promise<CallOutcome[]> => {
      const host = newHost({ stale: { limit: 3 }, onLimit: 'deny' });
      const agent = {};
      const out: CallOutcome[] = [];
      for (const command of ['pip install pyyaml', 'pip3 install pyyaml', 'python3 -m pip install pyyaml']) {
        out.push(await host.call({ agent, ...test(MISSING) }));
        out.push(await host.call({ agent, ...install(command, installAnswer) }));
      }
      out.push(await host.call({ agent, ...test(MISSING) }));
      return out;
    };
    assert.deepEqual(deniedAt(await turn(SATISFIED)), [7], 'the 4th run: its 3 answers came with nothing changed');
    assert.deepEqual(deniedAt(await turn('Successfully installed PyYAML-6.0.1')), [], 'each install changed the environment');
  });
});

