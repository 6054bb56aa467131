/**
 * What the opt-in tracks read of a shell command beside its fingerprints:
 * whether it changes files (change.ts), whether it polls (poll.ts), the
 * programs it runs and its command names (program.ts), and its words (the
 * guess track compares them). All three read the words the fingerprints
 * already split the command into, so a command is tokenized once however
 * many readers look at it; and the line is kept with the command's reading
 * (fingerprint.ts, recent.ts), so a command read again, as a loop reads it, is
 * not read at all. Each answer is made on first use: a policy that follows
 * nothing pays for none.
 *
 * Made only under a configuration that reads it (fingerprint.ts `readsLine`),
 * and only a short command's words are kept (RECENT_TEXT_LIMIT, P6): a longer
 * one is split again by each reader that asks, as each reads its own head. A
 * call without a line (another configuration, a test's record) is read by the
 * readers themselves, the same way.
 */
import { own } from '../host/own.js';
import { wordsChange } from './change.js';
import { POLL_READ_LIMIT, wordsPoll } from './poll.js';
import { programText, wordsCommandNames, wordsPrograms } from '../shell/program.js';
import { RECENT_TEXT_LIMIT } from './recent.js';
import { tokenize } from '../shell/tokenize.js';
import { keepShape } from '../host/shape.js';

export class ShellLine {
  #changes: boolean | undefined;
  #polls: boolean | undefined;
  #programs: readonly string[] | undefined;
  #names: readonly string[] | undefined;
  readonly #words: readonly string[] | null;
  readonly #sink: string | null;

  /** `words`: the whole command's, as tokenize() splits it; `sink`: theirs, as the fingerprints read it (`sink:`). */
  constructor(
    private readonly command: string,
    words: readonly string[],
    sink: string | null,
  ) {
    const kept = command.length <= RECENT_TEXT_LIMIT;
    this.#words = kept ? words : null;
    this.#sink = kept ? sink : null;
  }

  /** Whether the command, if it succeeds, changes files. */
  changes(): boolean {
    return (this.#changes ??= this.#words === null ? wordsChange(tokenize(this.command)) : wordsChange(this.#words, this.#sink));
  }

  /** Whether the command waits before it looks (a poll). */
  polls(): boolean {
    if (this.#polls === undefined) {
      const head = this.command.length > POLL_READ_LIMIT ? this.command.slice(0, POLL_READ_LIMIT) : this.command;
      this.#polls = wordsPoll(this.#words !== null && head === this.command ? this.#words : tokenize(head));
    }
    return this.#polls;
  }

  /** The programs the command runs, copied out of it (they outlive the call in the timeout track's book, P6). */
  programs(): readonly string[] {
    if (this.#programs === undefined) {
      const text = programText(this.command);
      this.#programs = wordsPrograms(this.#words !== null && text === this.command ? this.#words : tokenize(text)).map(own);
    }
    return this.#programs;
  }

  /** The command names the line runs, quick ones included, copied out of it (the environment track's book keeps them). */
  commandNames(): readonly string[] {
    if (this.#names === undefined) {
      const text = programText(this.command);
      this.#names = wordsCommandNames(this.#words !== null && text === this.command ? this.#words : tokenize(text)).map(own);
    }
    return this.#names;
  }

  /** The whole command's words, as tokenize() splits it. */
  words(): readonly string[] {
    return this.#words ?? tokenize(this.command);
  }
}

// A reading's line goes with its reading (host/shape.ts).
keepShape(new ShellLine('', [], null));
