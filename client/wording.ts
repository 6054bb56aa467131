/**
 * `resolveConfig`'s messages in the card's words. The plugin speaks YAML: a
 * cap "must be a number >= 2, or null to stop counting it". The card's
 * controls take `off` (or `unlimited`) for null, so a message shown under a
 * control says what that control takes. Only those spellings change; the rest
 * of the message is the plugin's, word for word, in the card's language, and
 * the card takes exactly the values the host takes.
 *
 * A refusal of ours is data (src/lib/text/refusal.ts): the card renders it
 * with its own words for the offered values. A plain string (a message from
 * elsewhere, or an English one a test holds) is re-spelled where YAML's
 * English offers `null`.
 */
import type { ConfigMessage, OfferedWords } from '../src/lib/text/refusal.js';
import { COPY, type Words } from './copy.js';
import type { Field } from './fields.js';

/** `null` (or "0, a negative number or null") where a message offers it as a value to type: "or null to …", "; null advises only". */
const NULL_OFFERED = /\b(0, a negative number or )?null(?= to | advises | leaves | turns )/g;

/** The words a refusal shown under `field` offers: the control's, where it has its own; YAML's otherwise. */
export function offeredFor(field: Field | undefined, words: Words = COPY): OfferedWords {
  if (field === undefined || field.kind.type !== 'number') return words.yaml;
  const { nullWord } = field.kind;
  const typed = nullWord === undefined ? undefined : `\`${nullWord}\``;
  return {
    off: typed ?? words.yaml.off,
    zeroOff: typed === undefined ? words.yaml.zeroOff : words.zeroOff(typed),
    number: words.yaml.number,
  };
}

/** A message about `field`, as the card shows it. */
export function inCardWords(message: string | ConfigMessage, field: Field | undefined, words: Words = COPY): string {
  if (typeof message !== 'string') return words.refusal(message, offeredFor(field, words));
  if (field === undefined || field.kind.type !== 'number') return message;
  const { nullWord } = field.kind;
  if (nullWord === undefined) return message;
  const typed = `\`${nullWord}\``;
  return message.replace(NULL_OFFERED, (_all, zero: string | undefined) => (zero === undefined ? typed : COPY.zeroOff(typed)));
}
