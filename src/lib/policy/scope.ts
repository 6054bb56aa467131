/**
 * Which tools take part. `include` narrows, `exclude` always wins, and both
 * accept `*` wildcards matched against the whole, case-sensitive name.
 */
import type { CoreConfig } from '../setting/core.js';

// Stryker disable next-line Regex: negated, nearly every pattern takes the expression path below, which reads it the same way
const LINE_BREAK = /[\n\r\u2028\u2029]/;

function matcher(pattern: string): (name: string) => boolean {
  if (!pattern.includes('*')) return (name) => name === pattern;
  // `*` spans anything but a line break, as `.*` does in the reference's patterns.
  // Stryker disable next-line ConditionalExpression: the expression reads every pattern as the scan below does; the scan keeps a pattern of user text linear
  if (LINE_BREAK.test(pattern)) {
    const source = pattern.split('*').map((piece) => piece.replace(/[\\^$.|?+()[\]{}]/g, '\\$&')).join('.*');
    const exact = new RegExp(`^${source}$`);
    return (name) => exact.test(name);
  }
  const parts = pattern.split('*');
  // A split has at least one part.
  const head = parts[0] as string;
  const tail = parts[parts.length - 1] as string;
  // Stryker disable next-line ConditionalExpression,StringLiteral,MethodExpression: an empty piece is found where the scan stands; leaving it out only saves the call
  const middle = parts.slice(1, -1).filter((part) => part !== '');
  // A left-to-right scan over literal pieces: linear, unlike a regex built from user text.
  return (name) => {
    if (LINE_BREAK.test(name)) return false;
    if (name.length < head.length + tail.length || !name.startsWith(head) || !name.endsWith(tail)) return false;
    let at = head.length;
    const end = name.length - tail.length;
    for (const piece of middle) {
      const found = name.indexOf(piece, at);
      if (found < 0 || found + piece.length > end) return false;
      at = found + piece.length;
    }
    return true;
  };
}

/** Compiles include/exclude once; the returned test is what every hook asks first. */
export function compileScope(cfg: Pick<CoreConfig, 'include' | 'exclude'>): (name: unknown) => boolean {
  const include = cfg.include.map(matcher);
  const exclude = cfg.exclude.map(matcher);
  return (name) => {
    if (typeof name !== 'string' || name === '') return false;
    if (include.length > 0 && !include.some((matches) => matches(name))) return false;
    return !exclude.some((matches) => matches(name));
  };
}
