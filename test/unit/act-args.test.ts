/**
 * The `act:` engine's own pieces, read directly: the option reader (args.ts),
 * the directory flags, the option tables' lookup and the rule passes. The
 * rule and table suites reach these through whole commands, where a reading
 * that went wrong often rewrites nothing visible; here each decision is pinned.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { optionSpan, readArgs, sortedSwitches, writeArgs, writesBack, type CommandSpec } from '../../src/lib/shell/act/args.js';
import { COMMANDS, specOf } from '../../src/lib/shell/act/commands.js';
import { splitDirectory } from '../../src/lib/shell/act/directory-flags.js';
import { ACT_READ_LIMIT, actOf } from '../../src/lib/shell/act/index.js';
import type { Rule } from '../../src/lib/shell/act/rule.js';
import { readLine } from '../../src/lib/shell/act/line.js';
import { sameWords, word, type Command, type Line, type Word } from '../../src/lib/shell/act/syntax.js';
import { CONTRASTS, GROUPS } from '../fixtures/act-corpus.js';

const spec = (name: string): CommandSpec => {
  const found = COMMANDS[name];
  assert.ok(found !== undefined, name);
  return found;
};
const words = (...values: string[]): Word[] => values.map((v) => word(v));
const expanding = (text: string): Word => ({ text, value: null });

describe('act: the option reader', () => {
  test('writesBack says whether writeArgs would give the words back alike, for every tabled command of the corpus and every way of keeping its flags', () => {
    const commands = [...GROUPS.flatMap((group) => group.commands), ...CONTRASTS.flatMap((contrast) => contrast.pair), 'ls -la -- x', 'grep -- -v a', 'ls x --', "grep -e 'a b' f", 'pytest --tb short -x t',
      // A `--` after every operand (or with none), and flags quoted: alike in value, not in text.
      'ls -la --', 'grep -n -- x', "ls '-la' x", "grep '-n' x f", 'ls "-l" -a'];
    let asked = 0;
    for (const command of commands) {
      for (const pipeline of readLine(command, 'posix')?.pipelines ?? []) {
        for (const { words: all } of pipeline) {
          const table = specOf(all[0]?.value ?? null);
          const args = table === undefined ? null : readArgs(table, all.slice(1));
          if (args === null) continue;
          const kept = [
            { switches: args.switches, longs: args.longs, options: args.options },
            { switches: sortedSwitches(args.switches), longs: [...args.longs].sort(), options: args.options },
            { switches: '', longs: [], options: [] },
          ];
          for (const flags of kept) {
            asked += 1;
            assert.equal(writesBack(all, args, flags), sameWords(writeArgs(all[0] as Word, all.slice(1), args, flags), all), command);
          }
        }
      }
    }
    assert.ok(asked > 100, `${asked} readings`);
  });


  test('a long switch is read as the letter, the long spelling or the name it stands for', () => {
    assert.equal(readArgs(spec('ls'), words('--all', 'x'))?.switches, 'a');
    assert.deepEqual(readArgs(spec('pytest'), words('--last-failed', 'x'))?.longs, ['--lf']);
    assert.deepEqual(readArgs(spec('tree'), words('--noreport', 'x'))?.longs, ['--noreport']);
  });

  // The line-count rule rewrites `--lines N` before any rule reads head or tail, so only the reader itself shows this entry.
  test("head's and tail's --lines takes the next word as its value, not as a file", () => {
    for (const name of ['head', 'tail']) {
      const read = readArgs(spec(name), words('--lines', '5', 'x'));
      assert.deepEqual(read?.options.map((w) => w.value), ['--lines=5'], name);
      assert.deepEqual(read?.operands, [{ at: 2, path: true }], name);
    }
  });

  test('--x=y is one option, whatever --x is, and takes no next word', () => {
    const lines = readArgs(spec('head'), words('--lines=5', 'x'));
    assert.deepEqual(lines?.options, [word('--lines=5')]);
    assert.deepEqual(lines?.operands, [{ at: 1, path: true }]);
    const all = readArgs(spec('ls'), words('--all=x', 'y'));
    assert.equal(all?.switches, '');
    assert.deepEqual(all?.options, [word('--all=x')]);
    assert.deepEqual(readArgs(spec('ls'), words('--bogus=1', 'y'))?.options, [word('--bogus=1')]);
  });

  test('a long valued flag takes the next word, kept as written when it expands', () => {
    assert.deepEqual(readArgs(spec('pytest'), words('--tb', 'short', 'x'))?.options, [word('--tb=short')]);
    assert.deepEqual(readArgs(spec('pytest'), [word('--tb'), expanding('$TB'), word('x')])?.options, [{ text: '--tb=$TB', value: null }]);
  });

  test('a long flag the table does not know, or a valued one without its value, leaves the command unread', () => {
    assert.equal(readArgs(spec('ls'), words('--bogus', 'x')), null);
    assert.equal(readArgs(spec('head'), words('--lines')), null);
    assert.equal(readArgs(spec('cat'), words('--lines', '5')), null);
  });

  test('-5 is a count only for the commands that take one, and only as a whole word', () => {
    assert.deepEqual(readArgs(spec('head'), words('-5', 'x'))?.options, [word('-5')]);
    assert.deepEqual(readArgs(spec('tail'), words('-5', 'x'))?.options, [word('-5')]);
    assert.deepEqual(readArgs(spec('grep'), words('-5', 'p', 'x'))?.options, [word('-5')]);
    assert.equal(readArgs(spec('ls'), words('-5', 'x')), null);
    assert.equal(readArgs(spec('head'), words('-5x', 'y')), null);
    assert.deepEqual(readArgs(spec('head'), words('-n-5', 'y'))?.options, [word('-n'), word('-5')]);
  });

  test('writesBack asks only the words there are: flags to keep past the last word are not written back', () => {
    const args = readArgs(spec('ls'), []);
    assert.ok(args !== null, 'ls with no arguments reads');
    assert.equal(writesBack(words('ls'), args, { switches: 'l', longs: [], options: [] }), false);
    assert.equal(writesBack(words('ls'), args, { switches: '', longs: ['--all'], options: [] }), false);
    assert.equal(writesBack(words('ls'), args, { switches: '', longs: [], options: [word('-I'), word('x')] }), false);
    assert.equal(writesBack(words('ls'), args, { switches: '', longs: [], options: [] }), true);
  });

  test('optionSpan steps over a short option with its value, and over a count or --x=y alone', () => {
    const options = readArgs(spec('grep'), words('-e', '-5', '-7', '--include=*.py', '--exclude', '$SKIP', '-m1', 'p', 'x'))?.options ?? [];
    assert.deepEqual(options.map((option) => option.value), ['-e', '-5', '-7', '--include=*.py', '--exclude=$SKIP', '-m', '1']);
    assert.deepEqual([0, 2, 3, 4, 5].map((at) => optionSpan(options, at)), [2, 1, 1, 1, 2]);
    // Only a whole short flag takes the next word: a long option's value may end like one.
    const long = readArgs(spec('grep'), words('--include=a-b', '-m', '1', 'p', 'x'))?.options ?? [];
    assert.deepEqual([0, 1].map((at) => optionSpan(long, at)), [1, 2]);
  });

  test('a cluster reads its switches, then a valued letter takes the rest or the next word', () => {
    const glued = readArgs(spec('head'), words('-qn5', 'x'));
    assert.equal(glued?.switches, 'q');
    assert.deepEqual(glued?.options, [word('-n'), word('5')]);
    assert.deepEqual(readArgs(spec('head'), words('-n', "'5'", 'x'))?.options, [word('-n'), word("'5'")]);
    assert.deepEqual(readArgs(spec('head'), [word('-n'), expanding('$N'), word('x')])?.options, [word('-n'), { text: '$N', value: null }]);
    assert.equal(readArgs(spec('head'), words('-n')), null);
    assert.equal(readArgs(spec('ls'), words('-j', 'x')), null);
    // A command without valued letters has none: `S` is not one of cat's.
    assert.equal(readArgs(spec('cat'), words('-S', 'x')), null);
  });

  test('a pattern flag makes every operand a path; without it the first is the pattern', () => {
    assert.deepEqual(readArgs(spec('grep'), words('-e', 'pat', 'a', 'b'))?.operands, [
      { at: 2, path: true },
      { at: 3, path: true },
    ]);
    assert.deepEqual(readArgs(spec('grep'), words('-m', '1', 'pat', 'a'))?.operands, [
      { at: 2, path: false },
      { at: 3, path: true },
    ]);
  });

  test('grep, rg and sed each take the pattern or script from -e and -f, so their first operand is then a file', () => {
    for (const name of ['grep', 'rg', 'sed']) {
      for (const flag of ['-e', '-f']) {
        assert.deepEqual(readArgs(spec(name), words(flag, 'pat', 'a'))?.operands, [{ at: 2, path: true }], `${name} ${flag}`);
      }
    }
  });

  test("node's -e and -p take the program text, and what follows is the program's arguments, not files", () => {
    for (const flag of ['-e', '-p']) {
      const read = readArgs(spec('node'), words(flag, 'console.log(1)', 'x'));
      assert.deepEqual(read?.options, [word(flag), word('console.log(1)')], flag);
      assert.deepEqual(read?.operands, [{ at: 2, path: false }], flag);
    }
  });

  test('a terminal flag ends the options, and its operands are the program’s arguments, not paths', () => {
    const code = readArgs(spec('python'), words('-c', 'print(1)', '-v', 'x'));
    assert.deepEqual(code?.options, [word('-c'), word('print(1)')]);
    assert.equal(code?.switches, '');
    assert.deepEqual(code?.operands, [
      { at: 2, path: false },
      { at: 3, path: false },
    ]);
    assert.deepEqual(readArgs(spec('python'), words('-v', 'x.py', 'y'))?.operands, [
      { at: 1, path: true },
      { at: 2, path: false },
    ]);
  });

  test('an expanding word where an option could be leaves the command unread; elsewhere it is an operand', () => {
    for (const text of ['-$X', '"-$X"', "'-'$X"]) assert.equal(readArgs(spec('ls'), [expanding(text)]), null, text);
    assert.deepEqual(readArgs(spec('ls'), [expanding('$X')])?.operands, [{ at: 0, path: true }]);
    assert.deepEqual(readArgs(spec('ls'), [expanding('$X-'), word('-l')])?.operands, [
      { at: 0, path: true },
      { at: 1, path: true },
    ]);
  });

  test('-- ends the options and records how many operands came before it', () => {
    const before = readArgs(spec('pytest'), words('a', '--', '-l'));
    assert.equal(before?.dashdash, 1);
    assert.equal(before?.switches, '');
    assert.deepEqual(before?.operands.map((o) => o.at), [0, 2]);
    const first = readArgs(spec('ls'), words('-l', '--', '-a'));
    assert.equal(first?.dashdash, 0);
    assert.equal(first?.switches, 'l');
    assert.deepEqual(first?.operands, [{ at: 2, path: true }]);
    assert.equal(readArgs(spec('ls'), words('x'))?.dashdash, -1);
  });

  test('a lone - is an operand (standard input), not a cluster', () => {
    assert.deepEqual(readArgs(spec('cat'), words('-'))?.operands, [{ at: 0, path: true }]);
  });

  test('a table whose operands are never paths marks none', () => {
    const none: CommandSpec = { switches: 'v', paths: 'none' };
    assert.deepEqual(readArgs(none, words('a', 'b'))?.operands, [
      { at: 0, path: false },
      { at: 1, path: false },
    ]);
  });
});

describe('act: the option tables’ lookup', () => {
  test('only the listed commands have a table; names inherited from Object do not', () => {
    assert.equal(specOf(null), undefined);
    assert.equal(specOf('constructor'), undefined);
    assert.equal(specOf('toString'), undefined);
    assert.equal(actOf('constructor -l ./p'), 'constructor -l ./p');
    // node has no switch letters at all.
    assert.equal(readArgs(spec('node'), words('-S', 'x')), null);
  });
});

describe('act: the directory flags', () => {
  const command = (...parts: (string | Word)[]): Command => ({ assigns: [], words: parts.map((p) => (typeof p === 'string' ? word(p) : p)), redirects: [] });
  const split = (c: Command): { dir: string | null; words: string[] } | null => {
    const got = splitDirectory(c);
    return got === null ? null : { dir: got.dir.value, words: got.words.map((w) => w.text) };
  };

  test('the flag comes out with its directory, separate or glued', () => {
    assert.deepEqual(split(command('make', '-C', 'web', 'all')), { dir: 'web', words: ['make', 'all'] });
    assert.deepEqual(split(command('npm', '--prefix=web', 'run', 'x')), { dir: 'web', words: ['npm', 'run', 'x'] });
  });

  test('words that are not the flag are left alone, expanding ones included', () => {
    assert.equal(split(command('make', 'all')), null);
    assert.equal(split(command('npm', 'run', 'x')), null);
    assert.equal(split(command('make', expanding('$T'), 'all')), null);
    assert.deepEqual(split(command('npm', expanding('$T'), '--prefix', 'web')), { dir: 'web', words: ['npm', '$T'] });
  });

  test('a flag without its directory, or glued to nothing, is not a directory flag', () => {
    assert.equal(split(command('git', '-C')), null);
    assert.equal(split(command('npm', '--prefix=', 'run')), null);
  });

  test('only the first argument is trusted, except npm’s --prefix anywhere before --', () => {
    assert.equal(split(command('make', 'all', '-C', 'web')), null);
    assert.deepEqual(split(command('npm', 'run', 'x', '--prefix', 'web')), { dir: 'web', words: ['npm', 'run', 'x'] });
    assert.equal(split(command('npm', 'run', 'x', '--', '--prefix', 'web')), null);
  });

  test('two npm prefixes combine, so the command is left alone; make’s second -C stays for make to read', () => {
    assert.deepEqual(split(command('make', '-C', 'a', '-C', 'b', 'all')), { dir: 'a', words: ['make', '-C', 'b', 'all'] });
    assert.equal(split(command('npm', '--prefix', 'a', '--prefix', 'b', 'run')), null);
    assert.equal(split(command('npm', '--prefix=a', 'run', '--prefix=b')), null);
  });
});

describe('act: the rule passes', () => {
  // A rule that counts its runs and rewrites the line (a new object) or not.
  const counting = (reopens: boolean, rewrites: boolean): { rule: Rule; runs: () => number } => {
    let runs = 0;
    const rule: Rule = {
      name: 'counting',
      reason: 'test',
      folds: [],
      keeps: [],
      reopens,
      apply: (line: Line): Line => {
        runs += 1;
        return rewrites ? { ...line } : line;
      },
    };
    return { rule, runs: () => runs };
  };

  test('the list runs again only when a reopening rule rewrote the line, three times at most', () => {
    const always = counting(true, true);
    actOf('make all', 'posix', [always.rule]);
    assert.equal(always.runs(), 3);
    const plain = counting(false, true);
    actOf('make all', 'posix', [plain.rule]);
    assert.equal(plain.runs(), 1);
    const idle = counting(true, false);
    actOf('make all', 'posix', [idle.rule]);
    assert.equal(idle.runs(), 1);
  });

  test('a command longer than the read limit is kept as written, trimmed; one at the limit is read', () => {
    const long = ` cat ./p ${'x'.repeat(ACT_READ_LIMIT)}`;
    assert.equal(actOf(long), long.trim());
    const atLimit = `cat ./p ${'x'.repeat(ACT_READ_LIMIT - 'cat ./p '.length)}`;
    assert.equal(atLimit.length, ACT_READ_LIMIT);
    assert.equal(actOf(atLimit), atLimit.replace('./p', 'p'));
  });
});
