/**
 * Fingerprints against the adjusted oracle (the reference's `fingerprints()`
 * with decision P3): calls made of the tables both sides key on — every shell
 * name, HTTP verb, URL-tool name, wrapper, volatile flag, generic sink, alias,
 * tracking key and local range of either side (test/support/vocabulary.ts), and
 * near misses of them — must carry the same fingerprints, in the same order,
 * and the same locality, under the configurations that change what is emitted.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveConfig } from '../../src/lib/config/config.js';
import { fingerprints } from '../../src/lib/call/fingerprint.js';
import { loadOracleModule } from '../parity/oracle.js';
import { mulberry32 } from '../support/prng.js';
import { exampleOf, nearMiss } from '../support/regex-examples.js';
import { localishHost, trackingKey, VOCABULARY, volatileWord, wrapperWords } from '../support/vocabulary.js';

interface OracleFingerprints {
  fingerprints(exec: unknown, cfg: unknown): { fps: string[]; local: boolean };
}
interface OracleDefaults {
  mergeDefaults(config: unknown): unknown;
  validateCfg(cfg: unknown): unknown;
}
const oracle = await loadOracleModule<OracleFingerprints>('lib/fingerprints.js');
const oracleDefaults = await loadOracleModule<OracleDefaults>('lib/defaults.js');

const SEED = 0xf1a9;
const CALLS = 3000;
const random = mulberry32(SEED);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const chance = (p: number): boolean => random() < p;

const CONFIGS: readonly Record<string, unknown>[] = [
  {},
  { localHosts: 'allow' },
  { includeLocal: true },
  { hostAliases: { 'example.org': 'Example.COM', 'alias.example': '' } },
  { ignoreArgs: { bash: ['workdir'] } },
];

function host(): string {
  if (chance(0.4)) {
    const local = localishHost(random);
    return local.includes(':') ? `[${local}]` : local;
  }
  return pick([...VOCABULARY.aliasHosts, 'example.org', 'api.example.com', 'www.example.org', 'alias.example', 'a.b.example.co.uk']);
}

function url(): string {
  const query = chance(0.3) ? `?${trackingKey(random)}=1&page=${Math.floor(random() * 3)}` : '';
  return `${pick(['https://', 'http://'])}${host()}${pick(['', '/', '/x', '/a/b/'])}${query}`;
}

/** A verb from either side's HTTP verbs, an ordinary one, or a near miss of an HTTP verb. */
function verb(): string {
  const roll = random();
  if (roll < 0.5) return pick(VOCABULARY.httpVerbs);
  if (roll < 0.7) return nearMiss(pick(VOCABULARY.httpVerbs), random);
  return pick(['ls', 'python3 x.py', '/usr/bin/curl', 'HTTPie', 'echo']);
}

function shellCall(): { name: string; args: Record<string, unknown> } {
  const words = [`${chance(0.4) ? wrapperWords(random) : ''}${verb()}`];
  for (let i = Math.floor(random() * 3); i > 0; i -= 1) words.push(volatileWord(random));
  for (let i = Math.floor(random() * 3); i > 0; i -= 1) words.push(url());
  if (chance(0.4)) words.push(pick([`-o ${pick(VOCABULARY.genericSinks)}`, `> ${pick(VOCABULARY.genericSinks)}`, '-o out.json', '| tee log.txt']));
  const name = chance(0.85) ? pick(VOCABULARY.shellTools) : pick(['Bash', 'sh', 'zsh', nearMiss(pick(VOCABULARY.shellTools), random)]);
  const args: Record<string, unknown> = { command: words.join(' ') };
  if (chance(0.3)) args.workdir = pick(['/w', '/tmp']);
  if (chance(0.3)) args[pick(Object.values(VOCABULARY.decoys).flat())] = `d${Math.floor(random() * 9)}`;
  return { name, args };
}

function urlToolCall(): { name: string; args: Record<string, unknown> } {
  const pattern = pick(VOCABULARY.urlToolPatterns);
  const example = exampleOf(pattern, random);
  const name = chance(0.8) ? pick([example, `my_${example}`, `${example}_tool`]) : nearMiss(example, random);
  return { name, args: { [pick(['url', 'href', 'uri', 'link'])]: chance(0.9) ? url() : 'not a url' } };
}

test(`${CALLS} calls drawn from both sides' tables carry the oracle's fingerprints, in order, and its locality`, () => {
  const configs = CONFIGS.map((config) => ({ ours: resolveConfig(config), oracle: oracleDefaults.validateCfg(oracleDefaults.mergeDefaults(config)) }));
  const measures = new Set<string>();
  for (let k = 0; k < CALLS; k += 1) {
    const call = chance(0.7) ? shellCall() : urlToolCall();
    const config = pick(configs);
    const ours = fingerprints(call, config.ours);
    const theirs = oracle.fingerprints({ name: call.name, arguments: call.args }, config.oracle);
    assert.deepEqual(ours, { fps: theirs.fps, local: theirs.local }, `fingerprints differ on ${JSON.stringify(call)}`);
    for (const fp of ours.fps) measures.add(fp.slice(0, fp.indexOf(':')));
  }
  // Every measure of 0.5.2 was emitted, so no table was drawn in vain.
  for (const measure of ['exact', 'cmd', 'verb', 'family', 'net', 'site', 'host', 'sink']) assert.ok(measures.has(measure), `no ${measure}: fingerprint was emitted`);
});
