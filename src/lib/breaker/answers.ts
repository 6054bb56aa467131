/**
 * How each refused measure's ask ended, per agent, for the turn: the refusal
 * that carries the ask's own denial (P13) knows its outcome from the host, and
 * the later denials of the same measures read it here, so each says the same
 * thing about who refused (issue 39). A human message clears the agent's book.
 */
import type { Agent } from '../host/types.js';
import { keep } from '../memory/book.js';
import type { AskOutcome } from '../text/message.js';

export interface AnswerBook {
  /** The ask about `keys` ended with `outcome`. */
  note(agent: Agent, keys: readonly string[], outcome: AskOutcome): void;
  /** How the ask about one of `keys` ended, the first that is known. */
  of(agent: Agent, keys: readonly string[]): AskOutcome | undefined;
  reset(agent: Agent): void;
}

export function createAnswerBook(): AnswerBook {
  const books = new WeakMap<Agent, Map<string, AskOutcome>>();
  return {
    note(agent, keys, outcome) {
      let book = books.get(agent);
      if (book === undefined) books.set(agent, (book = new Map()));
      for (const key of keys) keep(book, key, outcome);
    },
    of(agent, keys) {
      const book = books.get(agent);
      if (book === undefined) return undefined;
      for (const key of keys) {
        const outcome = book.get(key);
        if (outcome !== undefined) return outcome;
      }
      return undefined;
    },
    reset(agent) {
      books.delete(agent);
    },
  };
}
