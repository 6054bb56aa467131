/**
 * The argument identity behind `exact:` (§2.4): deterministic JSON of the
 * call's arguments once the decoy keys are gone.
 */
import { isDigitCode } from '../shell/tokenize.js';

const UNREADABLE = '"[unreadable]"';
const CYCLE = '"[cycle]"';

/** One object or array being written: its keys (none for an array) and progress. */
interface Frame {
  node: object;
  keys: string[] | null;
  length: number;
  next: number;
  written: number;
}

/** Values JSON has no spelling for: dropped as members, `null` as array items. */
function isSilent(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/**
 * A non-object value as JSON: the silent ones are `null`; BigInt, which
 * JSON.stringify rejects, becomes `"<n>n"`. A function is never handed to
 * JSON.stringify, which would call a `toJSON` it carries.
 */
function primitiveJson(value: unknown): string {
  if (typeof value === 'bigint') return JSON.stringify(`${value}n`);
  return isSilent(value) ? 'null' : JSON.stringify(value);
}

/** A canonical decimal integer: no sign, no leading zero, no spaces. */
const INTEGER = /^(?:0|[1-9]\d*)$/;

/** Array index keys (`0` … `4294967294`), which JSON.stringify lists first, in numeric order. */
function isArrayIndex(key: string): boolean {
  // Most keys are names: a key that starts with no digit is none, without the pattern.
  const first = key.charCodeAt(0);
  // Stryker disable next-line ConditionalExpression,LogicalOperator: a shortcut: the pattern refuses a key that starts with no digit
  return isDigitCode(first) && INTEGER.test(key) && Number(key) <= 4294967294;
}

/**
 * Whether key `a` goes before key `b` in `orderKeys`' order: indexes first, by
 * value (canonical decimals: the shorter is smaller, else the text decides),
 * then names by UTF-16 code units, as `sort()` orders strings. Keys are distinct.
 */
function goesBefore(a: string, aIndex: boolean, b: string, bIndex: boolean): boolean {
  if (aIndex !== bIndex) return aIndex;
  if (aIndex && a.length !== b.length) {
    // Stryker disable next-line EqualityOperator: the lengths differ here, so `<=` reads as `<`
    return a.length < b.length;
  }
  // Stryker disable next-line EqualityOperator: keys are distinct, so `a` never equals `b`
  return a < b;
}

/**
 * Member order of the reference's output: it sorts the keys, but writes them
 * into a fresh object, so index-like keys come first in numeric order.
 * `__proto__` is left out because assigning it there sets the prototype.
 */
function orderKeys(keys: string[]): string[] {
  const indexes: string[] = [];
  const names: string[] = [];
  for (const key of keys) {
    if (key === '__proto__') continue;
    if (isArrayIndex(key)) indexes.push(key);
    else names.push(key);
  }
  indexes.sort((a, b) => Number(a) - Number(b));
  names.sort();
  return indexes.concat(names);
}

/**
 * Deterministic JSON: keys sorted at every depth, array order kept.
 * Edge cases: a node already on the current path is `"[cycle]"` (a shared,
 * non-cyclic node is written twice); `undefined`, functions and symbols are
 * dropped as members, `null` as items and `'null'` at the top; BigInt is
 * `"<n>n"`; a member that throws when read is `"[unreadable]"`, and so is an
 * object whose keys cannot be listed. Iterative, so any depth works.
 * toJSON is never called: a function-valued toJSON is dropped like any function.
 */
export function canonical(value: unknown): string {
  try {
    return flatJson(value) ?? JSON.stringify(sortedCopy(value, 0, new Set())) ?? 'null';
  } catch {
    // Too deep, a cycle, a hostile getter or Proxy: the iterative writer handles them all.
    return canonicalIterative(value);
  }
}

/**
 * The commonest arguments, an object of plain values (`{ command: … }`), written
 * directly in the member order `sortedCopy` gives them; `null` for anything else.
 * Exported so tests hold it to the arguments it is for.
 */
export function flatJson(node: unknown): string | null {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return null;
  let out = '{';
  for (const key of orderKeys(Object.keys(node))) {
    const member: unknown = (node as Record<string, unknown>)[key];
    if (typeof member === 'object' && member !== null) return null;
    if (isSilent(member)) continue;
    out += `${out.length > 1 ? ',' : ''}${JSON.stringify(key)}:${primitiveJson(member)}`;
  }
  return `${out}}`;
}

/** Nesting the fast path takes before it hands over to the iterative writer. */
const FAST_DEPTH = 512;

/**
 * The common case, in the shape native JSON.stringify wants: a copy with sorted
 * keys, written into fresh objects (so index-like keys lead and `__proto__` falls
 * away, exactly as the iterative writer orders them). Throws on anything unusual.
 */
function sortedCopy(node: unknown, depth: number, path: Set<object>): unknown {
  // Stryker disable next-line ConditionalExpression: without the null check null reaches Object.keys, which throws into canonical's fallback, and the iterative writer writes the same `null`
  if (node === null || typeof node !== 'object') {
    // Written here, never handed to JSON.stringify, which would call a `toJSON` on a function or on BigInt.prototype.
    if (typeof node === 'bigint') return `${node}n`;
    // Silent values become undefined, which JSON.stringify drops as a member and writes as `null` as an item.
    return isSilent(node) ? undefined : node;
  }
  // Stryker disable next-line ConditionalExpression,StringLiteral: a shortcut to the iterative writer, which writes the cycle as "[cycle]"; without it the cycle runs on to FAST_DEPTH and is handed over there
  if (path.has(node)) throw new RangeError('cycle');
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: a shortcut to the iterative writer, which writes the same text; without it the recursion overflows the stack and canonical falls back all the same
  if (depth > FAST_DEPTH) throw new RangeError('deep');
  path.add(node);
  // Stryker disable next-line ArithmeticOperator: depth only feeds the shortcut above; counted down, the recursion overflows the stack and canonical falls back all the same
  const below = depth + 1;
  let copy: unknown;
  if (Array.isArray(node)) {
    const items: unknown[] = [];
    for (let i = 0; i < node.length; i += 1) items[i] = sortedCopy(node[i], below, path);
    copy = items;
  } else {
    const members: Record<string, unknown> = {};
    for (const key of Object.keys(node).sort()) members[key] = sortedCopy((node as Record<string, unknown>)[key], below, path);
    copy = members;
  }
  // Off the path again: a shared node that is no cycle is written each time it appears.
  path.delete(node);
  return copy;
}

/** The iterative writer's state: the text so far, the objects on the current path, the open frames. */
interface Writer {
  readonly out: string[];
  readonly path: Set<object>;
  readonly stack: Frame[];
}

/** Writes one value; an object opens a frame that `writeNext` fills in. */
function open(w: Writer, node: unknown): void {
  if (node === null || typeof node !== 'object') {
    w.out.push(primitiveJson(node));
    return;
  }
  if (w.path.has(node)) {
    w.out.push(CYCLE);
    return;
  }
  let frame: Frame;
  try {
    frame = Array.isArray(node)
      ? { node, keys: null, length: node.length, next: 0, written: 0 }
      : { node, keys: orderKeys(Object.keys(node)), length: 0, next: 0, written: 0 };
    if (frame.keys !== null) frame.length = frame.keys.length;
  } catch {
    // A Proxy whose traps throw, or a revoked one: nothing about it can be read.
    w.out.push(UNREADABLE);
    return;
  }
  w.out.push(frame.keys === null ? '[' : '{');
  w.path.add(node);
  w.stack.push(frame);
}

/** Writes the frame's next member, or closes the frame when none is left. */
function writeNext(w: Writer, frame: Frame): void {
  if (frame.next >= frame.length) {
    w.out.push(frame.keys === null ? ']' : '}');
    w.path.delete(frame.node);
    w.stack.pop();
    return;
  }
  const key = frame.keys === null ? frame.next : (frame.keys[frame.next] as string);
  frame.next += 1;
  let child: unknown;
  let readable = true;
  try {
    child = (frame.node as Record<string | number, unknown>)[key];
  } catch {
    readable = false;
  }
  if (frame.keys !== null && readable && isSilent(child)) return;
  if (frame.written > 0) w.out.push(',');
  frame.written += 1;
  if (frame.keys !== null) w.out.push(JSON.stringify(key), ':');
  if (readable) open(w, child);
  else w.out.push(UNREADABLE);
}

/** The same output as `canonical`, written without recursion; exported so tests keep the two equal. */
export function canonicalIterative(value: unknown): string {
  const w: Writer = { out: [], path: new Set(), stack: [] };
  open(w, value);
  for (let frame = w.stack.at(-1); frame !== undefined; frame = w.stack.at(-1)) writeNext(w, frame);
  try {
    return w.out.join('');
  }
  // Stryker disable next-line BlockStatement: only an output past the engine's string limit (2^29 characters) lands here, more than a test may allocate
  catch {
    return UNREADABLE;
  }
}

/** Decoy names listed for one key of `ignoreArgs`, read defensively. */
function decoysUnder(ignoreArgs: unknown, key: string, into: Set<string>): void {
  try {
    // A null table throws in Object.hasOwn, and the catch below declares nothing.
    if (typeof ignoreArgs !== 'object' || !Object.hasOwn(ignoreArgs as object, key)) return;
    const list: unknown = (ignoreArgs as Record<string, unknown>)[key];
    if (!Array.isArray(list)) return;
    for (const item of list) {
      if (typeof item === 'string' || typeof item === 'number') into.add(String(item));
    }
  } catch {
    // An unreadable table declares no decoys.
  }
}

/** The decoy names of one tool: those of `ignoreArgs['*']` and of `ignoreArgs[name]`. */
export function decoysOf(name: string, ignoreArgs: Readonly<Record<string, readonly string[]>>): Set<string> {
  const decoys = new Set<string>();
  decoysUnder(ignoreArgs, '*', decoys);
  decoysUnder(ignoreArgs, name, decoys);
  return decoys;
}

/**
 * `decoysOf` for a resolved configuration's table (never changed once
 * resolved), listed once per table: a tool the table does not name gets the
 * `*` names, so a model inventing tool names adds nothing to it.
 */
const decoyTables = new WeakMap<object, { readonly star: ReadonlySet<string>; readonly named: Map<string, ReadonlySet<string>> }>();

export function decoysFor(name: string, ignoreArgs: Readonly<Record<string, readonly string[]>>): ReadonlySet<string> {
  let table = decoyTables.get(ignoreArgs);
  if (table === undefined) decoyTables.set(ignoreArgs, (table = { star: decoysOf('*', ignoreArgs), named: new Map() }));
  const named = table.named.get(name);
  if (named !== undefined) return named;
  // A tool the table names is listed when first called, not every tool the table names when it is first met.
  if (!Object.hasOwn(ignoreArgs, name)) return table.star;
  const decoys = decoysOf(name, ignoreArgs);
  table.named.set(name, decoys);
  return decoys;
}

/**
 * A shallow copy of the arguments without the decoy keys of `ignoreArgs['*']`
 * and `ignoreArgs[name]`, top level only. Edge cases: `null`/`undefined` give
 * `{}`, any other non-object (string, number, array) gives `{ value: args }`;
 * a key that throws when read is skipped; the copy has no prototype surprises
 * (`__proto__` stays an own key, as with object spread).
 */
export function stripDecoys(name: string, args: unknown, ignoreArgs: Readonly<Record<string, readonly string[]>>): Record<string, unknown> {
  return withoutDecoys(args, decoysOf(name, ignoreArgs));
}

/** Members written without a copy; more go through the copy, where the keys are ordered without a search per key. */
const DIRECT_MEMBERS = 8;

/**
 * `canonical(withoutDecoys(args, decoys))`, the text of `exact:`, for every
 * call. Arguments of a few plain values (`{ command: … }`, nearly every call)
 * are written as they are read, with no copy made and listed again; anything
 * else is copied from the values already read, so each member is still read
 * exactly once, decoys too, as the copy alone would read it.
 */
export function argumentsJson(args: unknown, decoys: ReadonlySet<string>): string {
  // Stryker disable next-line ConditionalExpression,LogicalOperator: without it null reaches withoutDecoys, which gives {} as well
  if (args === null || args === undefined) return '{}';
  const members = membersOf(args, decoys);
  if (members === null) return canonical(wholeValue(args, decoys));
  const { names, values } = members;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a shortcut: the copy writes the same text for any members
  return names.length <= DIRECT_MEMBERS && allPlain(values) ? writeFlat(names, values) : canonical(copyOf(names, values));
}

/** Whether no value is an object (each is written as it is). A `false` only sends the members to the copy, which writes the same text. */
// Stryker disable next-line BlockStatement: a shortcut (above)
function allPlain(values: readonly unknown[]): boolean {
  // Stryker disable next-line ConditionalExpression,LogicalOperator: a shortcut (above)
  for (const value of values) if (typeof value === 'object' && value !== null) return false;
  // Stryker disable next-line BooleanLiteral: a shortcut (above)
  return true;
}

/**
 * `flatJson` of the members read: the same order, the silent ones left out.
 * At most `DIRECT_MEMBERS` of them, so they are ordered in place by insertion,
 * by their positions, with no lists of keys made and sorted.
 */
function writeFlat(names: readonly string[], values: readonly unknown[]): string {
  const count = names.length;
  // One member (the commonest call) needs no ordering; `__proto__` is never written.
  // Stryker disable next-line ConditionalExpression,BlockStatement: a shortcut: the ordering below writes one member the same
  if (count === 1 && names[0] !== '__proto__') {
    const value = values[0];
    return isSilent(value) ? '{}' : `{${JSON.stringify(names[0])}:${primitiveJson(value)}}`;
  }
  const order: number[] = [];
  for (let at = 0; at < count; at += 1) {
    const key = names[at] as string;
    // `__proto__` is never written.
    if (key === '__proto__') continue;
    const index = isArrayIndex(key);
    let slot = order.length;
    order.push(at);
    for (; slot > 0; slot -= 1) {
      const before = names[order[slot - 1] as number] as string;
      if (goesBefore(before, isArrayIndex(before), key, index)) break;
      order[slot] = order[slot - 1] as number;
    }
    order[slot] = at;
  }
  let out = '{';
  for (const at of order) {
    const value = values[at];
    if (isSilent(value)) continue;
    out += `${out.length > 1 ? ',' : ''}${JSON.stringify(names[at])}:${primitiveJson(value)}`;
  }
  return `${out}}`;
}

/** The copy `withoutDecoys` makes, from members already read. */
function copyOf(names: readonly string[], values: readonly unknown[]): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (let at = 0; at < names.length; at += 1) {
    const key = names[at] as string;
    const value = values[at];
    // A name the prototype has (`__proto__`) is defined, not assigned, so it stays an own key;
    // the rest are assigned, three times as fast on this hot path.
    // Stryker disable next-line ConditionalExpression: defining every member gives the same own property the assignment makes
    if (key in copy) Object.defineProperty(copy, key, { value, writable: true, enumerable: true, configurable: true });
    else copy[key] = value;
  }
  return copy;
}

/** A keyed object's members as a copy reads them: names and values in order, decoys left out. */
interface Members {
  readonly names: string[];
  readonly values: unknown[];
}

/**
 * Reads every member of `args`, decoys too, as a copy of the whole would;
 * `null` when `args` is not listed key by key (strings, numbers, arrays: they
 * are wrapped whole).
 */
function membersOf(args: NonNullable<unknown>, decoys: ReadonlySet<string>): Members | null {
  // Only a non-array object is listed key by key (null is what means "whole").
  let keys: string[] | null;
  try {
    keys = typeof args !== 'object' || Array.isArray(args) ? null : Object.keys(args);
  } catch {
    // An object that cannot be read as either (a revoked Proxy, a throwing trap) reads as no arguments.
    keys = [];
  }
  if (keys === null) return null;
  const names: string[] = [];
  const values: unknown[] = [];
  for (const key of keys) {
    let value: unknown;
    try {
      // Every member is read, decoys too, as a copy of the whole would.
      value = (args as Record<string, unknown>)[key];
    } catch {
      // A throwing getter: the key is skipped rather than failing the call.
      continue;
    }
    if (decoys.has(key)) continue;
    names.push(key);
    values.push(value);
  }
  return { names, values };
}

/** Arguments that are not a keyed object, as the copy holds them. */
function wholeValue(args: unknown, decoys: ReadonlySet<string>): Record<string, unknown> {
  return decoys.has('value') ? {} : { value: args };
}

/** `stripDecoys` with the decoy names already listed. */
export function withoutDecoys(args: unknown, decoys: ReadonlySet<string>): Record<string, unknown> {
  // Nothing to copy.
  // Stryker disable next-line ConditionalExpression: without the null check null reaches Object.keys, whose throw the catch below turns into the same {}
  if (args === null || args === undefined) return {};
  const members = membersOf(args, decoys);
  return members === null ? wholeValue(args, decoys) : copyOf(members.names, members.values);
}
