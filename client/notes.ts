/**
 * The "Default: …" part of a field's note: what a reset returns to. A value
 * the preset sets reads "From preset: 5". A one-line value is quoted; the
 * ignored arguments are not put on one line after the box that already shows
 * them: the note says the box is the default, or how many lines a reset brings
 * back. The host aliases' box holds only the user's own lines (the ones below
 * show read-only above it).
 */
import { COPY, type Words } from './copy.js';
import type { FieldView } from './form.js';

export function defaultNote(view: FieldView, words: Words = COPY): string {
  const { kind } = view.field;
  if (kind.type === 'aliases') return words.aliasesDefault;
  if (view.defaultFrom === 'preset') return words.fromPreset(view.defaultText);
  if (view.defaultText === '') return words.defaultIs(words.none);
  if (kind.type !== 'lists') return words.defaultIs(view.defaultText);
  if (view.text.trim() === view.defaultText) return words.defaultShown;
  return words.defaultLines(view.defaultText.split('\n').length);
}
