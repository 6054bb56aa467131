/**
 * The actions of a call, as the tracks that compare results follow them (the
 * stale and spin tracks): its identity (`exact:`, always), and its `cmd:`,
 * `act:` and `net:` marks when they are measured; `sink:` is not one (two
 * different writes to one file). A poll has none: while it waits, the same
 * answer is the expected one (call/poll.ts).
 */
import { isEnabled, type Mark } from '../call/mark.js';
import { isPoll } from '../call/poll.js';
import { readOf, slot, type TrackedCall } from './track.js';

/**
 * The measures beside `exact:` that name the same action however it is spelled
 * (volatile flags aside, spelling aside, the URL normalised). Not memory/progress.ts's
 * `ACTION_MEASURES`, which holds `exact:` and `sink:` too.
 */
const RESPELLING_MEASURES = new Set(['cmd', 'act', 'net']);

/** The call's actions; none for a poll. */
export function actionMarks(call: TrackedCall): Mark[] {
  if (call.line?.polls() ?? isPoll(call.name, call.command)) return [];
  return lookMarks(call);
}

/** The call's actions as a look, whether it waits first or not (call/waits.ts: a look with its wait aside). */
export function lookMarks(call: TrackedCall): Mark[] {
  return call.marks.filter((mark, at) => at === 0 || (isEnabled(mark) && RESPELLING_MEASURES.has(mark.measure)));
}

/** Each call's actions, read once for every track that follows them: the gate judges a call twice (ask and guard), then it settles. */
const ACTIONS = slot<readonly Mark[]>();

/** The call's actions (`actionMarks`), read on first use and kept while the call lives. */
export function actionsOf(call: TrackedCall): readonly Mark[] {
  return readOf(call, ACTIONS, actionMarks);
}
