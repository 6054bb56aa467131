/**
 * Directories: `cd /repo && make test` and `make -C /repo test` run make in
 * the same directory. Written canonically as the `cd … &&` form, and only for
 * the last command of the line (after it, the shell's directory no longer
 * matters), alone in its pipeline, after anything but `||` (`a || cd d && make`
 * groups differently; after `a &` the cd runs in the shell, not in `a`'s job),
 * and with no redirection to a relative path (`make -C d >log` writes ./log,
 * `cd d && make >log` writes d/log; so does bash's `>&log`). The tools and
 * flags are in directory-flags.ts.
 */
import type { Rule } from '../rule.js';
import { DIRECTORY_TOOLS, splitDirectory } from '../directory-flags.js';
import { commandOf, copiesDescriptor, lastPipeline, lineWith, withWords, word, type Line, type Redirect } from '../syntax.js';

/** A redirection that means the same from any directory: a descriptor copy or close, or an absolute path. */
function placeless(r: Redirect): boolean {
  const target = r.target.value;
  // An expanding target may be a relative file.
  if (target === null) return false;
  return copiesDescriptor(r) || target.startsWith('/');
}

function cdForm(line: Line): Line {
  const last = lastPipeline(line);
  const only = last.length === 1 ? last[0] : undefined;
  if (only === undefined || line.connectors[line.connectors.length - 1] === '||' || !only.redirects.every(placeless)) return line;
  const split = splitDirectory(only);
  if (split === null) return line;
  const cd = commandOf([], [word('cd'), split.dir], []);
  return lineWith([...line.pipelines.slice(0, -1), [cd], [withWords(only, split.words)]], [...line.connectors, '&&'], line.background);
}

export const directory: Rule = {
  name: 'directory',
  reason: 'A tool’s own directory flag and a cd just before it run the tool in the same directory.',
  apply: cdForm,
  names: DIRECTORY_TOOLS,
  reopens: true,
  folds: [
    ['cd /repo && make test', 'make -C /repo test', 'make --directory=/repo test', 'make --directory /repo test', 'make -C/repo test'],
    ['git -C /repo status', 'cd /repo && git status'],
    ['npm --prefix web run test', 'cd web && npm run test', 'npm run test --prefix web', 'npm run test --prefix=web'],
    ['go -C svc test ./...', 'cd svc && go test ./...'],
    ['yarn --cwd app build', 'cd app && yarn build'],
    ['npm --prefix web test 2>&1 | tail -20', 'cd web && npm run test'],
    ['make -C /repo test >/tmp/test.log 2>&1', 'cd /repo && make test >/tmp/test.log 2>&1'],
    ['npm start & make -C e2e test', 'npm start & cd e2e && make test'],
  ],
  keeps: [
    ['cd /repo && make test', 'make test'],
    ['make -C /repo test', 'make -C /other test'],
    ['cd /repo && make test && ls', 'make -C /repo test && ls'],
    ['cd /repo; make test', 'make -C /repo test'],
    ['tar -C /tmp -xf a.tar', 'cd /tmp && tar -xf a.tar'],
    ['false || make -C /repo test', 'false || cd /repo && make test'],
    ['npm test -- --prefix web', 'cd web && npm test'],
    ['make -C sub test > test.log', 'cd sub && make test > test.log'],
    ['make -C sub test | tee test.log', 'cd sub && make test | tee test.log'],
    ['make -C sub test >&test.log', 'cd sub && make test >&test.log'],
    // A target that expands may be a relative file.
    ['make -C sub test >"$LOG"', 'cd sub && make test >"$LOG"'],
  ],
};
