/**
 * Shipped data (the defaults, a preset, a track's settings) is frozen all the
 * way down: a caller that edits what it was handed must not change what the
 * next caller gets.
 */

/** `value` with every object inside it frozen, and itself; returned for use in an initialiser. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
}
