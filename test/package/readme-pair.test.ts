/**
 * README.md and README.zh.md in step (tools/readme-pair/pair.ts): the record
 * README.i18n.yaml holds each side's git blob hash as last synced, so an edit
 * to one side without the other fails here with how to re-sync; and the two
 * share their structure (headings, code blocks, figures, links).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';

import { blobHash, formatRecord, PAIR, parseRecord, readPair, RESYNC, shapeOf, staleness, structuralDifferences, writeRecord } from '../../tools/readme-pair/pair.js';
import { ROOT } from '../support/glossary.js';

/** A copy of the pair in a scratch directory, to edit. */
function scratch(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'rtb-readme-pair-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const EN_DOC = '# Title\n\nIt counts 12 calls. See [docs](docs/a.md).\n\n## Use\n\n```sh\nnpm test\n```\n';
const ZH_DOC = '# 标题\n\n它计 12 次调用。参见[文档](docs/a.md)。\n\n## 用法\n\n```sh\nnpm test\n```\n';

describe('the README pair record', () => {
  test('README.i18n.yaml records README.md and README.zh.md as they are now', () => {
    const problems = staleness(readPair(ROOT));
    assert.deepEqual(problems, [], problems.join('\n'));
  });

  test('README.zh.md has the sections, commands, figures and links of README.md', () => {
    const state = readPair(ROOT);
    const problems = structuralDifferences(state.enText, state.zhText);
    assert.deepEqual(problems, [], problems.join('\n'));
  });

  test('an edit of README.md alone makes the record stale, and the message says how to re-sync', () => {
    const dir = scratch({ [PAIR.en]: EN_DOC, [PAIR.zh]: ZH_DOC });
    try {
      assert.equal(writeRecord(dir).written, true, 'the pair is recorded');
      assert.deepEqual(staleness(readPair(dir)), [], 'in step once recorded');
      writeFileSync(join(dir, PAIR.en), `${EN_DOC}\nA new line.\n`);
      const [problem, ...rest] = staleness(readPair(dir));
      assert.deepEqual(rest, [], 'only README.md moved');
      assert.match(problem ?? '', /^README\.md has changed since README\.zh\.md was last synced with it/);
      assert.ok(problem?.includes(RESYNC), `the message names the re-sync command: ${problem}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('an edit of README.zh.md alone makes it stale too', () => {
    const dir = scratch({ [PAIR.en]: EN_DOC, [PAIR.zh]: ZH_DOC });
    try {
      writeRecord(dir);
      writeFileSync(join(dir, PAIR.zh), `${ZH_DOC}\n新的一行。\n`);
      assert.match(staleness(readPair(dir)).join('\n'), /^README\.zh\.md has changed since the pair was recorded/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('--write refuses a pair whose structure differs: a section, a command or a figure out of step', () => {
    const cases: [string, string, RegExp][] = [
      ['a section more', `${ZH_DOC}\n## 另一节\n`, /the headings differ/],
      ['another command', ZH_DOC.replace('npm test', 'npm run build'), /code block 1 differs/],
      ['another figure', ZH_DOC.replace('12', '16'), /figures 12 in README\.md, 16 in README\.zh\.md/],
      ['a link dropped', ZH_DOC.replace('[文档](docs/a.md)', '文档'), /links of README\.md missing from README\.zh\.md: docs\/a\.md/],
    ];
    for (const [what, zh, expected] of cases) {
      const dir = scratch({ [PAIR.en]: EN_DOC, [PAIR.zh]: zh });
      try {
        const { written, problems } = writeRecord(dir);
        assert.equal(written, false, `${what}: not recorded`);
        assert.match(problems.join('\n'), expected, what);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  test('the record holds git blob hashes, in the form DSH records its pairs', () => {
    assert.equal(blobHash(Buffer.from('hello\n')), 'ce013625030ba8dba906f756967f9e9ca394464a', 'git hash-object of "hello\\n"');
    const record = formatRecord('a'.repeat(40), 'b'.repeat(40));
    assert.deepEqual(parseRecord(record), { en: 'a'.repeat(40), zh: 'b'.repeat(40) });
    assert.match(readFileSync(join(ROOT, PAIR.record), 'utf8'), /^README\.md: [0-9a-f]{40}$/m);
  });

  test('headings inside code blocks are not sections', () => {
    const shape = shapeOf('# A\n```sh\n# a comment\n```\n## B\n');
    assert.deepEqual(shape.sections.map((s) => s.heading), ['(top)', 'A', 'B']);
    assert.equal(shape.code.length, 1);
  });
});
