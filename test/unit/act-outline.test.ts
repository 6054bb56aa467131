/**
 * The rules' outlines: a rule that says a line's outline does not concern it
 * is passed by, so that promise must hold. Every rule's examples, the act
 * corpus, and those lines behind wrappers, assignments, a `cd`, views and
 * redirections read the same with the outlines as with every rule run on
 * every line.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { actOf, RULES, type Rule } from '../../src/lib/shell/act/index.js';
import { readLine } from '../../src/lib/shell/act/line.js';
import { outlineOf } from '../../src/lib/shell/act/outline.js';
import { concerned } from '../../src/lib/shell/act/rule.js';
import { renderLine } from '../../src/lib/shell/act/syntax.js';
import { CONTRASTS, GROUPS } from '../fixtures/act-corpus.js';

const examples = [
  ...RULES.flatMap((rule) => [...rule.folds.flat(), ...rule.keeps.flat()]),
  ...GROUPS.flatMap((group) => group.commands),
  ...CONTRASTS.flatMap((contrast) => contrast.pair),
];
const BEFORE = ['', 'timeout 60 ', 'env A=1 B=2 ', 'B=2 A=1 ', 'cd /repo && ', 'bash -c ', 'GIT_PAGER=cat ', 'python3 -m ', 'set +H; '];
const AFTER = ['', ' | tail -20', ' 2>&1', ' >/dev/null', ' | cat', ' &', ' | grep -n x'];
const before = (b: string, c: string): string => (b === 'bash -c ' ? `${b}'${c.replaceAll("'", "'\\''")}'` : `${b}${c}`);
const commands = [...new Set(examples.flatMap((c, n) => [...BEFORE.map((b) => before(b, c) + (AFTER[n % AFTER.length] as string)), ...AFTER.map((a) => c + a)]))];

/** Every rule, each run on every line. */
const UNOUTLINED: readonly Rule[] = RULES.map((rule) => ({ name: rule.name, reason: rule.reason, apply: rule.apply, folds: rule.folds, keeps: rule.keeps, reopens: rule.reopens, dialect: rule.dialect }));

describe('act: outlines', () => {
  for (const dialect of ['posix', 'pwsh'] as const) {
    test(`a rule whose outline does not concern a line gives it back written alike, and a rule that keeps the outline keeps it (${dialect})`, () => {
      for (const command of commands) {
        let line = readLine(command, dialect);
        if (line === null) continue;
        for (const rule of RULES) {
          // A rule of another dialect is passed by, as the engine passes it by.
          if (rule.dialect !== undefined && rule.dialect !== dialect) continue;
          const next = rule.apply(line);
          if (!concerned(rule, outlineOf(line))) assert.equal(renderLine(next), renderLine(line), `${rule.name}: ${command}`);
          if (rule.keepsOutline === true) assert.deepEqual(outlineOf(next), outlineOf(line), `${rule.name} keeps the outline: ${command}`);
          line = next;
        }
      }
    });

    test(`passing rules by changes no act: reading (${dialect})`, () => {
      assert.ok(commands.length > 5000, `${commands.length} commands`);
      for (const command of commands) assert.equal(actOf(command, dialect), actOf(command, dialect, UNOUTLINED), command);
    });
  }

  test('the outline holds the literal command names, the most assignments of a command, and whether any redirects', () => {
    const line = readLine('A=1 B=2 make -C d | $PAGER >log; git status', 'posix');
    assert.ok(line !== null, 'the line reads');
    assert.deepEqual(outlineOf(line), { names: ['make', 'git'], assigns: 2, redirects: true });
  });
});
