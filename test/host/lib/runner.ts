/**
 * Running one suite file of the real-host tests under Node 22 with node's test
 * runner, the plugin under test handed over through the environment (see
 * env.ts). Shared by `npm run test:host` and `npm run test:web`.
 */
import { spawnSync } from 'node:child_process';

import { HOST_BIN_DIR, NODE22, REPO_DIR, type PluginLabel } from './env.js';
import type { Packed } from './setup.js';

export interface SuiteOutcome {
  readonly name: string;
  readonly ok: boolean;
  /** `tests N, pass N, fail N, todo N`, read from the spec reporter's totals. */
  readonly summary: string;
  readonly seconds: number;
}

export function runSuiteFile(name: string, file: string, label: PluginLabel, packed: Packed, extraEnv: NodeJS.ProcessEnv = {}): SuiteOutcome {
  const started = process.hrtime.bigint();
  const result = spawnSync(NODE22, ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=1', file], {
    cwd: REPO_DIR,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      ...extraEnv,
      BREAKER_LABEL: label,
      BREAKER_TARBALL: packed.tarball,
      BREAKER_DIR: packed.dir,
      BREAKER_ENTRY: packed.entry,
      // Node 22 (and the host's pnpm) first on PATH for everything the suites spawn.
      PATH: `${HOST_BIN_DIR}:${process.env.PATH ?? ''}`,
      FORCE_COLOR: '0',
      NO_COLOR: '1',
    },
    maxBuffer: 64 * 1024 * 1024,
  });
  process.stdout.write(result.stdout ?? '');
  const out = result.stdout ?? '';
  const count = (k: string): number | undefined => {
    const found = out.match(new RegExp(`ℹ ${k} (\\d+)`))?.[1];
    return found === undefined ? undefined : Number(found);
  };
  const summary = ['tests', 'pass', 'fail', 'cancelled', 'skipped', 'todo'].map((k) => `${k} ${count(k) ?? '?'}`).join(', ');
  // A suite whose describe throws while loading can end with status 0 and no test run: only a run
  // that ran tests and failed or cancelled none is a pass.
  const ran = (count('tests') ?? 0) > 0 && (count('pass') ?? 0) + (count('skipped') ?? 0) + (count('todo') ?? 0) === count('tests');
  const ok = result.status === 0 && ran && (count('fail') ?? 1) === 0 && (count('cancelled') ?? 0) === 0;
  return { name, ok, summary, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}
