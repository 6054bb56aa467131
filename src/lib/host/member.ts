/**
 * Reading one field of a value that a model, a tool or another plugin controls.
 * Only objects have members here. `member` lets a throwing getter or Proxy trap
 * throw, for callers that then treat the whole value as unreadable;
 * `safeMember` turns such a throw into "absent".
 */

export function member(holder: unknown, key: string): unknown {
  return typeof holder === 'object' && holder !== null ? (holder as Record<string, unknown>)[key] : undefined;
}

export function safeMember(holder: unknown, key: string): unknown {
  try {
    return member(holder, key);
  } catch {
    // A throwing getter or Proxy trap: absent.
  }
  return undefined;
}

/** A mapping: an object that is not an array (a settings block, a JSON record). */
export function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
