/**
 * Path spelling: `./src/app.py`, `src/app.py`, `src//app.py` and
 * `src/./app.py` name one file, and `src/` one directory. Respelled only where
 * a word is known to be a path: the operands commands.ts marks as paths, and
 * redirection targets. Never the command word (`./run.sh` is not `run.sh`,
 * which is looked up in PATH), never a pattern or script text (`s/a//g`),
 * never a URL or `host:path`, and `..` is kept (through a symlink, `a/../b`
 * need not be `b`). A path that would start with `-` keeps its `./`.
 */
import { argsOf, COMMAND_NAMES, specOf } from '../commands.js';
import type { Rule } from '../rule.js';
import { mapCommands, mapList, nameOf, withParts, withTarget, word, type Command, type Redirect, type Word } from '../syntax.js';

/** The path in its one spelling, or the text unchanged when it is not plainly a path. */
export function canonicalPath(path: string): string {
  // An empty name is no path. (isTidy keeps it too: either test alone keeps it, and the example `cat ''` holds the two.)
  // Stryker disable next-line ConditionalExpression,StringLiteral: isTidy keeps the empty name too (above)
  if (path === '') return path;
  if (path.startsWith('-') || path.includes(':') || isTidy(path)) return path;
  const absolute = path.startsWith('/');
  const kept = path.split('/').filter((segment) => segment !== '' && segment !== '.');
  const joined = kept.join('/');
  if (absolute) return `/${joined}`;
  if (joined === '') return '.';
  return joined.startsWith('-') ? `./${joined}` : joined;
}

/**
 * Whether the path is already in its one spelling: no empty or `.` segment,
 * no trailing slash. Most operands are; they are not split and joined again.
 */
// Stryker disable all: a shortcut: split and joined, a path in its one spelling comes back as it was (the empty name is kept before it)
function isTidy(path: string): boolean {
  if (path.includes('//') || path.includes('/./') || path.startsWith('./') || path.endsWith('/.')) return false;
  return !path.endsWith('/') || path === '/';
}
// Stryker restore all

/** A pytest node id keeps its `::test` suffix as written. */
function canonicalNodeId(id: string): string {
  const cut = id.indexOf('::');
  return cut === -1 ? canonicalPath(id) : `${canonicalPath(id.slice(0, cut))}${id.slice(cut)}`;
}

function respell(w: Word, nodeIds: boolean): Word {
  if (w.value === null) return w;
  const path = nodeIds ? canonicalNodeId(w.value) : canonicalPath(w.value);
  // A path already in its one spelling keeps its text: quoting is another rule's to fold.
  return path === w.value ? w : word(path);
}

/** The command's words with the operands its option table marks as paths respelled. */
function respellOperands(command: Command): readonly Word[] {
  const args = argsOf(command);
  if (args === null) return command.words;
  // A command that reads has a table.
  // Stryker disable next-line OptionalChaining: the table is there (above); the chain is for the type
  const nodeIds = specOf(nameOf(command))?.nodeIds === true;
  let words: Word[] | null = null;
  for (const operand of args.operands) {
    if (!operand.path) continue;
    const before = command.words[operand.at + 1] as Word;
    const after = respell(before, nodeIds);
    // Stryker disable next-line ConditionalExpression: a shortcut: an operand written as it was leaves the words as they were
    if (after !== before) (words ??= [...command.words])[operand.at + 1] = after;
  }
  return words ?? command.words;
}

// `>&1` and `<&3` copy a descriptor: their target is a number, never a path (`>&./1` writes a file named 1).
function respellTarget(r: Redirect): Redirect {
  if (r.op === '>&' || r.op === '<&') return r;
  const target = respell(r.target, false);
  // Stryker disable next-line ConditionalExpression: a shortcut: the same target written again is the same redirection
  return target === r.target ? r : withTarget(r, target);
}

function canonicalPaths(command: Command): Command {
  return withParts(command, command.assigns, respellOperands(command), mapList(command.redirects, respellTarget));
}

export const paths: Rule = {
  name: 'paths',
  reason: './x, x, x/ and a//x name the same file where a word is known to be a path.',
  apply: (line) => mapCommands(line, canonicalPaths),
  // Paths are known only as the operands of a tabled command, and as redirection targets.
  names: COMMAND_NAMES,
  redirects: true,
  folds: [
    ['cat ./src/app.py', 'cat src/app.py', 'cat src//app.py', 'cat ./src/./app.py'],
    ['ls -la src/', 'ls -la src', 'ls -la ./src/'],
    ['pytest tests/unit/', 'pytest ./tests/unit'],
    ['python ./scripts/build.py', 'python scripts/build.py'],
    ['pytest ./tests/test_api.py::test_login', 'pytest tests/test_api.py::test_login'],
    ['echo done > ./out.txt', 'echo done >out.txt'],
    ['cd /repo/ && make', 'cd /repo && make', 'cd //repo && make'],
    ['grep -rn TODO ./src/', 'grep -rn TODO src'],
    // The working directory, and the root, each in one spelling.
    ['ls .', 'ls ./', 'ls .//'],
    ['ls /', 'ls //', 'ls /./'],
    ['pytest tests//test_api.py::test_login', 'pytest tests/test_api.py::test_login'],
  ],
  keeps: [
    ['./run.sh', 'run.sh'],
    ['rm ./-rf', 'rm -rf'],
    ['cat src/a.py', 'cat src/b.py'],
    ['cat ../a.py', 'cat a.py'],
    ['cat /a/../b', 'cat /b'],
    ["sed 's/a//g' f.txt", "sed 's/a/g' f.txt"],
    ['grep -r "a//b" src', 'grep -r a/b src'],
    ['python x.py ./data/', 'python x.py data'],
    ['rsync -a src/ dst', 'rsync -a src dst'],
    ['cat ./notes.txt', 'cat ./notes.md'],
    // A `host:path`, a node id's test name, and a descriptor copy are no paths to respell.
    ['cat a:b//c', 'cat a:b/c'],
    ['pytest tests/test_api.py::a//b', 'pytest tests/test_api.py::a/b'],
    ['echo hi >&./1', 'echo hi >&1'],
    ['cat <&./3', 'cat <&3'],
    // An empty name is no directory, and a name after `--` that starts with a dash keeps its spelling.
    ["cat ''", 'cat .'],
    ['cat -- -a//b', 'cat -- ./-a/b'],
  ],
};
