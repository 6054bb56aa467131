/**
 * The "Default: …" part of a field's note. A one-line value is quoted; a
 * multi-line map (ignored arguments, host aliases) is not put on one line
 * after the box that already shows it: the note says the box is the default,
 * or how many lines a reset brings back.
 */
import { COPY, type Words } from './copy.js';
import type { FieldView } from './form.js';

export function defaultNote(view: FieldView, words: Words = COPY): string {
  const { kind } = view.field;
  if (view.defaultText === '') return words.defaultIs(words.none);
  if (kind.type !== 'lists' && kind.type !== 'aliases') return words.defaultIs(view.defaultText);
  if (view.text.trim() === view.defaultText) return words.defaultShown;
  return words.defaultLines(view.defaultText.split('\n').length);
}
