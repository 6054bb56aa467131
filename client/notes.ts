/**
 * The "Default: …" part of a field's note. A one-line value is quoted; a
 * multi-line map (ignored arguments, host aliases) is not put on one line
 * after the box that already shows it: the note says the box is the default,
 * or how many lines a reset brings back.
 */
import { COPY } from './copy.js';
import type { FieldView } from './form.js';

export function defaultNote(view: FieldView): string {
  const { kind } = view.field;
  if (view.defaultText === '') return COPY.defaultIs(COPY.none);
  if (kind.type !== 'lists' && kind.type !== 'aliases') return COPY.defaultIs(view.defaultText);
  if (view.text.trim() === view.defaultText) return COPY.defaultShown;
  return COPY.defaultLines(view.defaultText.split('\n').length);
}
