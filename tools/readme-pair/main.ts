/**
 * `npm run readme:pair`: checks that README.md and README.zh.md agree in
 * structure (tools/readme-pair/pair.ts) and that README.i18n.yaml records them
 * as they are. `-- --write` records the pair after you brought one side along
 * with the other (it refuses while their structures differ).
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { readPair, staleness, structuralDifferences, writeRecord } from './pair.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

if (process.argv.includes('--write')) {
  const { written, problems } = writeRecord(ROOT);
  for (const problem of problems) console.error(`readme:pair: ${problem}`);
  console.error(written ? 'readme:pair: README.i18n.yaml records the pair as it is now.' : 'readme:pair: not recorded: the two READMEs differ in structure.');
  process.exitCode = written ? 0 : 1;
} else {
  const state = readPair(ROOT);
  const problems = [...structuralDifferences(state.enText, state.zhText), ...staleness(state)];
  for (const problem of problems) console.error(`readme:pair: ${problem}`);
  if (problems.length === 0) console.error('readme:pair: README.md and README.zh.md are in step, and recorded so.');
  process.exitCode = problems.length === 0 ? 0 : 1;
}
