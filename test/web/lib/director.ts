/**
 * What the scripted model does in the browser suite. Each human prompt ends
 * with a tag, `(script name)`, naming a script the test registered; the model
 * plays the calls of the latest tagged prompt in order, one per step, then
 * answers with text. A session can hold several turns, each with its own
 * script; the answer depends only on the conversation (an adapter retry gets
 * the same one), and the conversation a screenshot shows stays readable.
 */
import type { ConversationMessage, ScriptedCall } from '../../host/lib/mock-model.js';

/** One step of a script: a call, played `times` times (default once). */
export interface Step extends ScriptedCall {
  readonly times?: number;
}

const TAG = /\(script ([\w-]+)\)/g;

/** The calls a script stands for; a bash call without a description gets one that varies, as a model's do. */
export function expand(steps: readonly Step[]): ScriptedCall[] {
  return steps.flatMap(({ times = 1, name, arguments: args }) =>
    Array.from({ length: times }, (_, i) => ({
      name,
      arguments: name === 'bash' && args.description === undefined ? { ...args, description: `try ${i + 1}` } : args,
    })),
  );
}

export interface Director {
  /** Registers a script under `name` and returns the prompt that plays it. */
  prompt(text: string, name: string, steps: readonly Step[]): string;
  /** The next call for a conversation, or `undefined` once the latest script's calls all have results. */
  nextCall(conversation: readonly ConversationMessage[]): ScriptedCall | undefined;
}

export function createDirector(): Director {
  const scripts = new Map<string, ScriptedCall[]>();
  return {
    prompt(text, name, steps) {
      if (scripts.has(name)) throw new Error(`script ${name} is already registered`);
      scripts.set(name, expand(steps));
      return `${text} (script ${name})`;
    },
    nextCall(conversation) {
      for (let at = conversation.length - 1; at >= 0; at -= 1) {
        const message = conversation[at]!;
        if (message.role !== 'user') continue;
        const name = [...message.text.matchAll(TAG)].at(-1)?.[1];
        const calls = name === undefined ? undefined : scripts.get(name);
        if (calls === undefined) continue;
        const done = conversation.slice(at + 1).filter((m) => m.role === 'tool').length;
        return calls[done];
      }
      return undefined;
    },
  };
}
