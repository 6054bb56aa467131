/**
 * Quoting: `'TODO'`, `"TODO"` and `TODO` hand the program the same text, and so
 * do `'a b'` and `a\ b`. Every literal word is rewritten in one canonical
 * quoting; a word the shell expands (`$HOME`, `*.ts`) is kept as written, so
 * `'*.ts'` (a file name) never meets `*.ts` (a glob).
 */
import { isAssignment } from '../../command.js';
import type { Rule } from '../rule.js';
import { mapCommands, quote, withParts, withTarget, type Command, type Redirect, type Word } from '../syntax.js';

/** A word with this text: the word itself when it already has it (a rule that changes nothing allocates nothing). */
function written(w: Word, text: string): Word {
  // Stryker disable next-line ConditionalExpression: a shortcut: a new word with the same text reads as the word itself
  return text === w.text ? w : { text, value: w.value };
}

function respell(w: Word, commandWord: boolean): Word {
  if (w.value === null) return w;
  // A quoted `A=1` in command position is a command named `A=1`, not an assignment: keep it visibly quoted.
  // Stryker disable next-line StringLiteral: a shortcut: a word without `=` is no assignment
  if (commandWord && w.value.includes('=') && isAssignment(w.value)) return written(w, `'${w.value.replaceAll("'", "'\\''")}'`);
  return written(w, quote(w.value));
}

function respellAssignment(w: Word): Word {
  if (w.value === null) return w;
  const eq = w.value.indexOf('=');
  return written(w, `${w.value.slice(0, eq + 1)}${quote(w.value.slice(eq + 1))}`);
}

function respellRedirect(r: Redirect): Redirect {
  const target = respell(r.target, false);
  // Stryker disable next-line ConditionalExpression: a shortcut, as in written()
  return target === r.target ? r : withTarget(r, target);
}

// One loop per part, each calling its respelling directly: every line meets this rule, most of its
// words are written canonically already, and a shared map with a callback per word cost more than the respelling.

/** The words respelled, the first as the command word; the very list when none changes. */
function respellWords(words: readonly Word[]): readonly Word[] {
  for (let at = 0; at < words.length; at += 1) {
    const w = words[at] as Word;
    const next = respell(w, at === 0);
    // Stryker disable next-line ConditionalExpression: a shortcut: a new list of the same words reads as the list itself
    if (next === w) continue;
    const out = words.slice(0, at);
    out.push(next);
    for (at += 1; at < words.length; at += 1) out.push(respell(words[at] as Word, false));
    return out;
  }
  return words;
}

/** The assignments respelled; the very list when none changes. */
function respellAssignments(assigns: readonly Word[]): readonly Word[] {
  for (let at = 0; at < assigns.length; at += 1) {
    const w = assigns[at] as Word;
    const next = respellAssignment(w);
    // Stryker disable next-line ConditionalExpression: a shortcut: a new list of the same words reads as the list itself
    if (next === w) continue;
    const out = assigns.slice(0, at);
    out.push(next);
    for (at += 1; at < assigns.length; at += 1) out.push(respellAssignment(assigns[at] as Word));
    return out;
  }
  return assigns;
}

/** The redirections respelled; the very list when none changes. */
function respellRedirects(redirects: readonly Redirect[]): readonly Redirect[] {
  for (let at = 0; at < redirects.length; at += 1) {
    const r = redirects[at] as Redirect;
    const next = respellRedirect(r);
    // Stryker disable next-line ConditionalExpression: a shortcut, as above
    if (next === r) continue;
    const out = redirects.slice(0, at);
    out.push(next);
    for (at += 1; at < redirects.length; at += 1) out.push(respellRedirect(redirects[at] as Redirect));
    return out;
  }
  return redirects;
}

const respellCommand = (command: Command): Command =>
  withParts(command, respellAssignments(command.assigns), respellWords(command.words), respellRedirects(command.redirects));

export const quoting: Rule = {
  name: 'quoting',
  reason: 'Quotes and escapes only delimit a word: the program receives the same text.',
  apply: (line) => mapCommands(line, respellCommand),
  // A word's value, and so a command's name, is what quoting leaves as it was.
  // Stryker disable next-line BooleanLiteral: a shortcut: without it the engine reads the new line's outline, the same one
  keepsOutline: true,
  folds: [
    ["grep -rn 'TODO' src", 'grep -rn "TODO" src', 'grep -rn TODO src', 'grep  -rn \\TODO\tsrc'],
    ["cat 'my notes.txt'", 'cat "my notes.txt"', 'cat my\\ notes.txt', "cat my' 'notes.txt"],
    ['CI="1" npm run test', "CI='1' npm run test", 'CI=1 npm run test'],
    ["echo done > 'out.txt'", 'echo done > out.txt'],
    ['CI="1" X=\'2\' Y=3 npm run test', 'CI=1 X=2 Y=3 npm run test'],
    ["echo done > 'out.txt' 2> \"err.txt\" < in.txt", 'echo done > out.txt 2> err.txt < in.txt'],
  ],
  keeps: [
    ["ls '*.ts'", 'ls *.ts'],
    ['echo "$HOME"', "echo '$HOME'"],
    ['touch "a b"', 'touch a b'],
    ['echo "a\\b"', 'echo "ab"'],
    ["'A=1' make", 'A=1 make'],
    ['echo "a|b"', 'echo a|b'],
    ['CI="1" X=2 make', 'CI=1 make'],
    ["echo done > 'out.txt' 2> err.txt", 'echo done > out.txt'],
    ["grep 'a && b' notes.txt", 'grep a && b notes.txt'],
  ],
};
