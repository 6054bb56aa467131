/**
 * The measured precision of `act:` on the corpus: at least 90 % of the groups
 * of respellings fold, no contrast pair folds, and docs/act.md reports the
 * figures the code gives today.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { measurePrecision, precisionBlockOf, precisionMarkdown } from '../../tools/act-precision/precision.js';
import { CONTRASTS, GROUPS } from '../fixtures/act-corpus.js';

const precision = measurePrecision();

test('the corpus holds at least 40 groups of respellings and 60 contrast pairs, no command twice in a group', () => {
  assert.ok(GROUPS.length >= 40, `${GROUPS.length} groups`);
  assert.ok(CONTRASTS.length >= 60, `${CONTRASTS.length} contrast pairs`);
  for (const group of GROUPS) {
    assert.ok(group.commands.length >= 2, group.shape);
    assert.equal(new Set(group.commands).size, group.commands.length, group.shape);
  }
  for (const { pair, why } of CONTRASTS) assert.notEqual(pair[0], pair[1], why);
});

test('at least 90 % of the groups of respellings fold into one act: fingerprint', () => {
  const share = precision.groupsFolded / precision.groups;
  assert.ok(share >= 0.9, `${precision.groupsFolded}/${precision.groups}; not folded: ${precision.unfolded.map((g) => g.shape).join('; ')}`);
});

test('no contrast pair of genuinely different actions folds', () => {
  assert.deepEqual(
    precision.wronglyFolded.map((c) => `${c.why}: ${c.pair.join(' | ')}`),
    [],
  );
});

test('docs/settings.md quotes the corpus size and the share of groups folded as measured', () => {
  const readme = readFileSync(new URL('../../docs/settings.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
  const share = Math.floor((100 * precision.groupsFolded) / precision.groups);
  const claim = `On a corpus of ${precision.groups} groups of respellings and ${precision.contrasts} look-alike pairs of different actions, ${share} % of the groups fold and ${precision.contrastsFolded === 0 ? 'no pair does' : `${precision.contrastsFolded} pairs do`}`;
  assert.ok(readme.includes(claim), claim);
});

test('docs/act.md carries the precision table the code gives today (npm run act-precision -- --write)', () => {
  const doc = readFileSync(new URL('../../docs/act.md', import.meta.url), 'utf8');
  assert.equal(precisionBlockOf(doc), precisionMarkdown(precision));
});
