/**
 * A spread of plugin configurations: the shipped defaults, each documented knob
 * on its own, random combinations of them, and a few percent of configurations
 * that must be rejected at load (both plugins have to throw).
 */
import type { Rng } from '../support/prng.js';
import { VOCABULARY } from '../support/vocabulary.js';
import { side } from './side-stream.js';

type Config = Record<string, unknown>;

/** One knob at a time. Each entry returns a partial config; maps merge, scalars replace. */
const FACETS: ReadonlyArray<readonly [number, (rng: Rng) => Config]> = [
  [6, () => ({ onLimit: 'deny' })],
  [6, () => ({ onLimit: 'ask' })],
  // small caps, so gates are reached in short sessions
  [10, (rng) => ({ limits: { exact: rng.int(2, 5), cmd: rng.int(2, 5), net: rng.int(2, 5), sink: rng.int(2, 4), host: rng.int(3, 7) } })],
  [4, (rng) => ({ limits: { exact: rng.pick([2, 2.5, 3, 12]), host: rng.pick([2, 3, 16, null]) } })],
  [3, () => ({ limits: { net: null, cmd: null } })],
  // small stages
  [8, (rng) => ({ warnAt: rng.int(1, 4), summarizeAt: rng.int(2, 6) })],
  // raised / inverted / equal / disabled stages
  [3, () => ({ warnAt: 20, summarizeAt: 30 })],
  [3, (rng) => ({ warnAt: rng.int(4, 6), summarizeAt: rng.int(2, 3) })],
  [2, () => ({ warnAt: 3, summarizeAt: 3 })],
  [3, (rng) => ({ warnAt: rng.pick([0, -1, null, undefined]) })],
  [3, (rng) => ({ summarizeAt: rng.pick([0, -5, null, undefined]) })],
  [2, () => ({ warnAt: 7.0, summarizeAt: 11 })],
  // local hosts
  [6, () => ({ localHosts: 'allow' })],
  [2, () => ({ localHosts: 'deny' })],
  [5, () => ({ includeLocal: true })],
  // failure-track switches
  [5, () => ({ failLimit: null })],
  [4, (rng) => ({ failWarnAt: rng.pick([0, null, -1, undefined]) })],
  [6, (rng) => ({ failWarnAt: rng.int(1, 3), failLimit: rng.pick([2, 2.5, 3, 4]) })],
  [2, () => ({ failWarnAt: 6, failLimit: 3 })],
  // include / exclude
  [3, () => ({ include: ['bash', 'web_*'] })],
  [2, () => ({ include: ['*fetch*', 'read'], exclude: ['web_search'] })],
  [3, () => ({ exclude: [] })],
  [2, () => ({ exclude: ['read', 'todo_*', 'edi?'] })],
  [1, () => ({ include: ['Bash', 'pwsh'] })],
  [1, () => ({ exclude: ['web.fetch', 'b(ash)', 'read|write', '[a-z]*'] })],
  [1, () => ({ include: ['*'], exclude: ['*_search', 'MyFetcher'] })],
  // window sizes
  [6, (rng) => ({ window: rng.pick([4, 5, 6, 8, 10]) })],
  [2, () => ({ window: 40 })],
  // preview sizes (only the quoted fingerprints change; the hit lines must still match)
  [4, (rng) => ({ previewChars: rng.pick([1, 8, 30, 60, 96, 97, 120]) })],
  [2, (rng) => ({ resultPreviewChars: rng.pick([1, 5, 50]) })],
  // host aliases and decoy keys
  [3, () => ({ hostAliases: { 'example.org': 'example.com', 'Foo.com': 'bar.com', 'raw.githubusercontent.com': 'GitHub.com' } })],
  [2, () => ({ hostAliases: { 'open-data.canada.ca': '', 'weather.gc.ca': 'climate.weather.gc.ca' } })],
  [3, () => ({ ignoreArgs: { bash: ['workdir'], '*': ['description'] } })],
  [2, () => ({ ignoreArgs: { web_fetch: ['format'], read: ['limit'] } })],
  // volume budgets enabled
  [4, (rng) => ({ limits: { site: rng.int(3, 8), 'family:http-fetch': rng.int(3, 8), 'verb:curl': rng.int(2, 6) } })],
  [2, (rng) => ({ limits: { verb: rng.int(3, 6), 'verb:wget': 3 } })],
  // user-added exact keys
  [2, () => ({ limits: { 'host:api.example.com': 3, 'cmd:ls:ls -la /tmp': 2, 'sink:out.bin': null } })],
  // accepted oddity
  [1, () => ({ pathAliases: { '/a': '/b' } })],
  // P11: refused by both the port and the adjusted oracle (0.5.2 passes them through)
  [1, () => ({ someFutureKey: { nested: true } })],
  [1, () => ({ onlimit: 'deny' })],
  [1, () => ({ limits: { exat: 3 } })],
  // a 0.6.1 section of the JavaScript line's shell-HTTP block: this line names where the key came from (P11)
  [1, () => ({ blockShellHttp: true, shellHttpAllow: ['api.example.com'] })],
];

/** Configurations that must be rejected at load. */
const BAD: ReadonlyArray<() => unknown> = [
  () => null,
  () => [],
  () => 'warnAt=3',
  () => 7,
  () => ({ window: 3 }),
  () => ({ window: 4.5 }),
  () => ({ window: undefined }),
  () => ({ window: '16' }),
  () => ({ localHosts: 'ask' }),
  () => ({ localHosts: 'maybe' }),
  () => ({ onLimit: 'never' }),
  () => ({ includeLocal: 'yes' }),
  () => ({ warnAt: '7' }),
  () => ({ warnAt: Number.NaN }),
  () => ({ summarizeAt: Number.POSITIVE_INFINITY }),
  () => ({ failWarnAt: 2.5 }),
  () => ({ failLimit: 1 }),
  () => ({ failLimit: undefined }),
  () => ({ failLimit: Number.POSITIVE_INFINITY }),
  () => ({ failLimit: '5' }),
  () => ({ previewChars: 0 }),
  () => ({ resultPreviewChars: 1.5 }),
  () => ({ limits: { exact: 1 } }),
  () => ({ limits: { custom: '3' } }),
  () => ({ limits: [] }),
  () => ({ ignoreArgs: null }),
  () => ({ hostAliases: 'x' }),
  () => ({ exclude: 'todo_write' }),
  () => ({ include: [1] }),
  () => ({ include: undefined }),
  () => ({ denyAfter: 2 }),
  () => ({ warnAfter: 3 }),
  () => ({ registerAdvisory: true }),
  () => ({ maxSamePath: 4 }),
  () => ({ readTools: ['read'] }),
  () => ({ matchReadBySubstring: false }),
  () => ({ window: 2, denyAfter: 2 }),
];

const MAP_KEYS = new Set(['limits', 'ignoreArgs', 'hostAliases']);

function merge(into: Config, part: Config): void {
  for (const [key, value] of Object.entries(part)) {
    const prev = into[key];
    if (MAP_KEYS.has(key) && prev !== null && typeof prev === 'object' && value !== null && typeof value === 'object') {
      into[key] = { ...(prev as Config), ...(value as Config) };
    } else {
      into[key] = value;
    }
  }
}

/** A configuration for one session; `undefined` means "no config argument at all". */
export function generateConfig(rng: Rng): unknown {
  const roll = rng.float();
  if (roll < 0.03) {
    const bad = rng.pick(BAD)();
    // From the side stream: any key the reference removed in 0.2.0, which must fail the load.
    return side().chance(0.3) ? { [side().pick(VOCABULARY.removedKeys)]: 2 } : bad;
  }
  if (roll < 0.1) return undefined;
  if (roll < 0.16) return {};
  const config: Config = {};
  const facets = rng.weighted<number>([[5, 1], [4, 2], [2, 3], [1, 4]]);
  for (let i = 0; i < facets; i += 1) merge(config, rng.weighted(FACETS)(rng));
  // From the side stream: a shipped limits key or decoy key of either side, set by the user.
  const extra = side().float();
  if (extra < 0.06) merge(config, { limits: { [side().pick(VOCABULARY.limitKeys)]: side().int(2, 4) } });
  else if (extra < 0.1) merge(config, { ignoreArgs: { [side().pick(['*', 'bash', 'web_fetch'])]: [side().pick(Object.values(VOCABULARY.decoys).flat())] } });
  return config;
}
