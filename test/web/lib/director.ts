/**
 * What the scripted model does in the browser suite: each human prompt carries
 * its own script (`SCRIPT:` and a JSON list of calls), and the model plays the
 * calls of the latest scripted prompt in order, one per step, then answers
 * with text. A session can therefore hold several turns, each with its own
 * script, and the model needs no state of its own (an adapter retry gets the
 * same answer).
 */
import type { ConversationMessage, ScriptedCall } from '../../host/lib/mock-model.js';

const MARK = 'SCRIPT:';

/** A human prompt: a line for the person reading the conversation, then the script. */
export function scriptedPrompt(title: string, calls: readonly ScriptedCall[]): string {
  return `${title}\n${MARK}${JSON.stringify(calls)}`;
}

/** `times` identical bash calls (the same `command`; descriptions vary, as a model's do). */
export function repeatBash(command: string, times: number): ScriptedCall[] {
  return Array.from({ length: times }, (_, i) => ({ name: 'bash', arguments: { command, description: `run it (try ${i + 1})` } }));
}

/** The next call of the latest scripted prompt, or `undefined` once its calls all have results. */
export function nextCall(conversation: readonly ConversationMessage[]): ScriptedCall | undefined {
  for (let at = conversation.length - 1; at >= 0; at -= 1) {
    const message = conversation[at]!;
    if (message.role !== 'user') continue;
    const start = message.text.lastIndexOf(MARK);
    if (start === -1) continue;
    const calls = JSON.parse(message.text.slice(start + MARK.length).split('\n')[0]!) as ScriptedCall[];
    const done = conversation.slice(at + 1).filter((m) => m.role === 'tool').length;
    return calls[done];
  }
  return undefined;
}
