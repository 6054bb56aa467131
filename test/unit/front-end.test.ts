/**
 * A run read by the environment it runs in, not by the front-end that starts
 * it (call/front-end.ts), as the options-aside reading (call/respelled.ts)
 * compares two calls that returned the very same result.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { optionsAside } from '../../src/lib/call/respelled.js';
import { readLine } from '../../src/lib/shell/act/line.js';
import { withFrontEndsRead } from '../../src/lib/call/front-end.js';
import { ACT_READ_LIMIT } from '../../src/lib/shell/act/index.js';
import { sameReading as sameReadingBy } from '../support/readings.js';

const aside = (line: string): string | null => optionsAside(line, 'posix');
const pwsh = (line: string): string | null => optionsAside(line, 'pwsh');

/** `sameReading` under the posix reading unless given another. */
const sameReading = (lines: readonly string[], read: (line: string) => string | null = aside): void => sameReadingBy(lines, read);

describe('a run read by its environment, not its front-end', () => {
  test('a venv activated (source or .), its tool named by path, or run as python -m: one run', () => {
    sameReading([
      'source .venv/bin/activate && pytest tests/test_cart.py',
      '. .venv/bin/activate; pytest tests/test_cart.py',
      '.venv/bin/pytest tests/test_cart.py',
      './.venv/bin/pytest tests/test_cart.py',
      '.venv/bin/python -m pytest tests/test_cart.py',
      '.venv/bin/python3 -m pytest tests/test_cart.py',
      'source .venv/bin/activate && python -m pytest tests/test_cart.py',
      'uv run pytest tests/test_cart.py',
      "bash -lc 'source .venv/bin/activate && pytest tests/test_cart.py'",
    ]);
  });

  test('what comes before the activation, and an environment activated twice, read as written once', () => {
    sameReading(['cd /work && source .venv/bin/activate && pytest tests', 'cd /work && .venv/bin/pytest tests']);
    sameReading(['source .venv/bin/activate && pytest && mypy src', '.venv/bin/pytest && .venv/bin/mypy src', '. .venv/bin/activate && pytest && . .venv/bin/activate && mypy src']);
  });

  test('conda run -n and conda activate; npx, pnpm exec, npm exec and node_modules/.bin', () => {
    sameReading(['conda run -n shop pytest tests', 'conda activate shop && pytest tests', 'conda run --name shop python -m pytest tests']);
    sameReading(['npx jest src/cart.test.js', 'pnpm exec jest src/cart.test.js', 'npm exec -- jest src/cart.test.js', './node_modules/.bin/jest src/cart.test.js', 'npx --yes jest src/cart.test.js']);
  });

  test('PowerShell: the activation script run, or the tool named under Scripts', () => {
    sameReading(['.venv\\Scripts\\activate; pytest tests', '.venv\\Scripts\\python.exe -m pytest tests', '.\\.venv\\Scripts\\pytest.exe tests', '. .venv\\Scripts\\Activate.ps1; pytest tests'], pwsh);
  });

  test('the environment stays: two venvs, two conda environments, poetry against .venv are other runs', () => {
    assert.notEqual(aside('.venv39/bin/pytest tests'), aside('.venv312/bin/pytest tests'));
    assert.notEqual(aside('source venv/bin/activate && pytest tests'), aside('.venv/bin/pytest tests'));
    assert.notEqual(aside('conda run -n py39 pytest tests'), aside('conda run -n py312 pytest tests'));
    assert.notEqual(aside('poetry run pytest tests'), aside('.venv/bin/pytest tests'));
    assert.notEqual(aside('pipenv run pytest tests'), aside('poetry run pytest tests'));
  });

  test("a project manager's run in the environment it uses: uv, pdm and rye the project's .venv; poetry, pipenv and hatch each its own", () => {
    sameReading(['.venv/bin/pytest tests', 'uv run pytest tests', 'pdm run pytest tests', 'rye run python -m pytest tests', 'pdm run python3 -m pytest tests']);
    sameReading(['hatch run pytest tests', 'hatch run python -m pytest tests', 'hatch run python3 -m pytest tests']);
    const own = ['poetry run pytest tests', 'pipenv run pytest tests', 'hatch run pytest tests', '.venv/bin/pytest tests'].map(aside);
    assert.equal(new Set(own).size, own.length, own.join(' / '));
    assert.notEqual(aside('pdm run pytest tests/a.py'), aside('pdm run pytest tests/b.py'));
    const line = readLine('hatch run --env test pytest', 'posix');
    assert.ok(line !== null, 'the line is read');
    assert.equal(withFrontEndsRead(line, 'posix'), null, "an option before the tool is hatch's, not read");
  });

  test('an install by another of its names: npm i, add or isntall is npm install, pnpm i is pnpm install, a bare yarn is yarn install', () => {
    sameReading(['npm install', 'npm i', 'npm add', 'npm isntall', 'npm install --no-fund']);
    sameReading(['npm install --save-dev supertest', 'npm i -D supertest', 'npm add --save-dev supertest']);
    sameReading(['pnpm install', 'pnpm i']);
    sameReading(['yarn install', 'yarn', 'yarn --frozen-lockfile']);
    assert.notEqual(aside('npm ci'), aside('npm install'), 'npm ci removes node_modules first');
    assert.notEqual(aside('pnpm add lodash'), aside('pnpm install lodash'));
    assert.notEqual(aside('yarn add lodash'), aside('yarn install'));
    assert.notEqual(aside('npm i supertest'), aside('npm i nock'));
  });

  test("a package script run through npm, yarn or pnpm: one project's script; another script, a builtin or an option in place of the name stay apart", () => {
    sameReading(['npm test -- tests/cart.test.js', 'npm run test -- tests/cart.test.js', 'npm t tests/cart.test.js', 'yarn test tests/cart.test.js', 'yarn run test tests/cart.test.js', 'pnpm test tests/cart.test.js', 'pnpm run test tests/cart.test.js']);
    sameReading(['npm test', 'yarn test', 'pnpm test'], (line) => optionsAside(line, 'posix', false));
    assert.notEqual(aside('npm run test:unit'), aside('npm run test'));
    assert.notEqual(aside('yarn install'), aside('npm run install'));
    assert.notEqual(aside('npm test -- tests/a.test.js'), aside('yarn test tests/b.test.js'));
    assert.equal(withFrontEndsRead(readLine('npm run --silent', 'posix') as NonNullable<ReturnType<typeof readLine>>, 'posix'), null);
  });

  test('the tool, its operands and a package version stay', () => {
    assert.notEqual(aside('.venv/bin/pytest tests/a.py'), aside('source .venv/bin/activate && pytest tests/b.py'));
    assert.notEqual(aside('.venv/bin/mypy src'), aside('.venv/bin/pytest src'));
    assert.notEqual(aside('npx prettier@2 --check src'), aside('npx prettier@3 --check src'));
    assert.notEqual(aside('npm test -- src/cart.test.js'), aside('npx jest src/cart.test.js'), 'npm runs a script the guard cannot read');
  });

  test('what is no front-end is left as written: system and project scripts, an activation after ||, in a pipe, or run in a child shell', () => {
    for (const line of ['/usr/bin/python3 x.py', './bin/rails test', 'a || source .venv/bin/activate && pytest', 'echo x | .venv/bin/python -c pass', '.venv/bin/activate; pytest', 'source .venv/bin/activate extra && pytest', 'uv run --with rich pytest', 'npx -p typescript tsc', 'conda run -n shop --live-stream pytest']) {
      const line0 = readLine(line, 'posix');
      assert.ok(line0 !== null, line);
      assert.equal(withFrontEndsRead(line0, 'posix'), null, line);
    }
  });

  test('a long tool path is no environment: the reading stays linear', () => {
    const long = `${'a/'.repeat(5000)}bin/pytest tests`;
    const line = readLine(long, 'posix');
    assert.ok(line !== null, 'the line is read');
    assert.equal(withFrontEndsRead(line, 'posix'), null);
  });

  test('a line within the read limit whose environments, written out, outgrow it has no reading', () => {
    const line = Array.from({ length: 900 }, (_, i) => `e${i % 2}/bin/t`).join(' && ');
    assert.ok(line.length <= ACT_READ_LIMIT, `${line.length} characters`);
    assert.equal(aside(line), null);
    assert.notEqual(aside(line.slice(0, 2000).replace(/ &&[^&]*$/, '')), null, 'a shorter one is read');
  });
});
