/**
 * `npm run act-precision`: the precision of the `act:` measure on the corpus
 * (test/fixtures/act-corpus.ts), as the Markdown block docs/act.md carries.
 *
 *   npm run act-precision             # print the block
 *   npm run act-precision -- --write  # replace the block in docs/act.md
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PRECISION_END, PRECISION_START, precisionMarkdown, withPrecisionBlock } from './precision.js';

const block = precisionMarkdown();
if (process.argv.includes('--write')) {
  const path = fileURLToPath(new URL('../../docs/act.md', import.meta.url));
  writeFileSync(path, withPrecisionBlock(readFileSync(path, 'utf8'), block));
  console.log(`docs/act.md: precision block between ${PRECISION_START} and ${PRECISION_END} updated`);
} else {
  console.log(block);
}
