/**
 * The one reader of a tool result's text: the `text` of each block of its
 * `content`, as DSH hands them over. Every part of the plugin that reads a
 * result's text reads it here, each taking the blocks it has always taken:
 *
 * - `shown`: the blocks whose text is a non-empty string, what a denial quotes
 *   of the last result (its head, and how much was cut);
 * - `strings`: every block whose text is a string, an empty one too: the
 *   outcome and the progress digests (result/digest.ts);
 * - `all`: every block, one without a string text as an empty one: the text
 *   the failure classifier searches (result/failure.ts).
 *
 * A result is model- and tool-controlled: `member` lets a throwing getter
 * throw, and the caller decides what an unreadable result means; with
 * `safeMember` a block that cannot be read is an absent one.
 */
import { member } from './member.js';

/** Which blocks a reading takes (see above). */
export type Blocks = 'shown' | 'strings' | 'all';

/** How a field is read: `member` (a throw is the caller's) or `safeMember` (a throw is an absent field). */
export type Reader = (holder: unknown, key: string) => unknown;

/**
 * The texts of the blocks a reading takes, in order; none when `content` is
 * not an array. With `limit`, reading stops at the first block once the
 * texts taken, joined by newlines, reach `limit` characters. Throws what the
 * result throws when `read` does.
 */
export function resultBlocks(result: unknown, blocks: Blocks, read: Reader = member, limit = Number.POSITIVE_INFINITY): string[] {
  const content = read(result, 'content');
  const texts: string[] = [];
  if (!Array.isArray(content)) return texts;
  let length = 0;
  for (const block of content) {
    if (length >= limit) break;
    const text = read(block, 'text');
    if (typeof text !== 'string') {
      if (blocks === 'all') texts.push('');
      continue;
    }
    if (text === '' && blocks === 'shown') continue;
    if (texts.length > 0) length += 1;
    texts.push(text);
    length += text.length;
  }
  return texts;
}

/** Characters of `texts` joined by newlines, without joining them. */
export function joinedLength(texts: readonly string[]): number {
  let length = texts.length - 1;
  for (const text of texts) length += text.length;
  return Math.max(length, 0);
}

/** The first `limit` characters of `texts` joined by newlines; a huge block is cut before it is joined. */
export function joinedHead(texts: readonly string[], limit: number): string {
  if (texts.length === 1) return (texts[0] as string).slice(0, limit);
  // Stryker disable next-line MethodExpression: the joined head is cut to the limit below; cutting each block first only spares joining a huge one
  return texts.map((text) => text.slice(0, limit)).join('\n').slice(0, limit);
}

/** The whole text of the blocks a reading takes, joined by newlines. Throws what the result throws. */
export function resultText(result: unknown, blocks: Blocks): string {
  const texts = resultBlocks(result, blocks);
  return texts.length === 1 ? (texts[0] as string) : texts.join('\n');
}
