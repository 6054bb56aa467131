/**
 * `resolveConfig`'s messages in the card's words. The plugin speaks YAML: a
 * cap "must be a number >= 2, or null to stop counting it". The card's
 * controls take `off` (or `unlimited`) for null and whole numbers for caps, so
 * a message shown under a control says what that control takes. Only those
 * spellings change; the rest of the message is the plugin's, word for word.
 */
import type { Field } from './fields.js';

/** `null` (or `0 / null`) where a message offers it as a value to type: "or null to …", "; null advises only". */
const NULL_OFFERED = /\b(?:0 \/ )?null(?= to | advises | leaves )/g;

/** A message about `field`, as the card shows it. */
export function inCardWords(message: string, field: Field | undefined): string {
  if (field === undefined || field.kind.type !== 'number') return message;
  const { nullWord, whole } = field.kind;
  let text = message;
  if (nullWord !== undefined) text = text.replace(NULL_OFFERED, `\`${nullWord}\``);
  if (whole === true) text = text.replace(/\bmust be a number >= /, 'must be a whole number >= ');
  return text;
}
