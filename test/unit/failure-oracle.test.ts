/**
 * The shell text fallback against the adjusted oracle (the reference's
 * classifier with decision P1 and the host facts): texts made of the evidence
 * both classifiers key on — every pattern and marker of either side, drawn from
 * the tables (test/support/vocabulary.ts), one or two per text, around and
 * beside each other, and near misses of them — must be classified alike. A
 * pattern dropped or changed on either side is a mismatch here.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classifyFailure } from '../../src/lib/result/failure.js';
import { loadOracleModule } from '../parity/oracle.js';
import { mulberry32 } from '../support/prng.js';
import { failureEvidence, VOCABULARY } from '../support/vocabulary.js';

interface OracleFailure {
  classifyFailure(result: unknown, options?: { shell?: boolean; command?: string }): { reason: string; detail: string } | null;
}
const oracle = await loadOracleModule<OracleFailure>('lib/failure.js');

const SEED = 0xfa11;
const TEXTS = 4000;
const random = mulberry32(SEED);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

const PROSE = ['', 'ok', 'fetching...', 'done.', '  ', 'total 12', 'see the docs', '{"a":1}'];
const COMMANDS = [undefined, 'python3 x.py', "curl -s -w '%{http_code}' https://a.com/x", 'curl -w "%{response_code}" u'];

function genText(): string {
  const lines: string[] = [];
  for (let i = 1 + Math.floor(random() * 3); i > 0; i -= 1) {
    const roll = random();
    if (roll < 0.6) lines.push(failureEvidence(random));
    else if (roll < 0.8) lines.push(`${pick(PROSE)} ${failureEvidence(random)}`);
    else lines.push(pick(PROSE));
  }
  // A leading status line, for the curl write-out rule (P1).
  if (random() < 0.1) lines.unshift(pick(['404', '  503', '200', '4040', '500 x']));
  return lines.join(pick(['\n', '\n', ' ', '\r\n']));
}

test(`the shell text fallback classifies ${TEXTS} texts of table-drawn evidence as the oracle does`, () => {
  const seen = new Set<string>();
  for (let k = 0; k < TEXTS; k += 1) {
    const text = genText();
    const command = pick(COMMANDS);
    const result = { isError: false, value: { kind: 'foreground', exitCode: 0 }, content: [{ type: 'text', text }] };
    const options = command === undefined ? { shell: true } : { shell: true, command };
    const ours = classifyFailure(result, options);
    assert.deepEqual(ours, oracle.classifyFailure(result, options), `classifyFailure differs on ${JSON.stringify(text)} (command ${JSON.stringify(command)})`);
    seen.add(ours?.reason ?? 'none');
  }
  // Every reason the text can give was reached, so no pattern was drawn in vain.
  for (const reason of ['none', 'exit', 'http', 'timeout', 'signal', 'sandbox', 'exception', 'curl']) assert.ok(seen.has(reason), `no text was classified ${reason}`);
  assert.ok(VOCABULARY.failureMarks.length >= 9, 'the vocabulary lost the classifier markers');
});
