/**
 * A mark is one fingerprint of the current call in the form the breaker works
 * with: its identity key for counting (P6), its cap, its tie-break rank, and the
 * two quotations messages need. Only hits and advisories read the quotations,
 * so they are made on first reading; a mark lives as long as its call.
 */
import type { CoreConfig } from '../setting/core.js';
import { preview } from '../text/message.js';
import { summaryLabel } from '../text/notice.js';
import { measureOf, RANKED, type SharedReading } from './fingerprint.js';
import { identityKey, lookupKey } from './identity.js';
import type { Mark } from './mark-type.js';
import { keepShape } from '../host/shape.js';

export type { Mark };

/** Finite cap: the measure takes part in advisories and in the failure track. */
export function isEnabled(mark: Mark): boolean {
  return Number.isFinite(mark.cap);
}

/** The quotations and the lookup key are computed when first read; the getters live on the prototype, not on each mark. */
class LazyMark implements Mark {
  #quote: string | undefined;
  #label: string | undefined;
  #lookup: string | undefined;

  constructor(
    readonly key: string,
    readonly measure: string,
    readonly cap: number,
    readonly rank: number,
    private readonly fp: string,
    private readonly previewChars: number,
  ) {}

  get quote(): string {
    return (this.#quote ??= preview(this.fp, this.previewChars));
  }

  get label(): string {
    return (this.#label ??= summaryLabel(this.fp));
  }

  get lookup(): string {
    return (this.#lookup ??= lookupKey(this.key));
  }
}

// A call's marks die with it: one kept for the process's life keeps their shape (host/shape.ts).
// Stryker disable next-line StringLiteral: the kept mark's values are never read; only its shape is
keepShape(new LazyMark('', 'exact', Number.POSITIVE_INFINITY, 0, '', 0));

/**
 * The caps of one `limits` table, read fast: a measure's cap from a Map, and the
 * table searched for a full fingerprint only for measures that have such keys
 * (`verb:curl`), so a long fingerprint is not hashed against the table for nothing.
 */
interface Caps {
  readonly measures: ReadonlyMap<string, number>;
  readonly full: ReadonlyMap<string, number>;
  readonly fullMeasures: ReadonlySet<string>;
}

const compiled = new WeakMap<object, Caps>();

function capsOf(limits: Readonly<Record<string, number | null>>): Caps {
  let caps = compiled.get(limits);
  // Stryker disable next-line ConditionalExpression: a cache: compiling the table again gives the same caps
  if (caps !== undefined) return caps;
  const measures = new Map<string, number>();
  const full = new Map<string, number>();
  const fullMeasures = new Set<string>();
  for (const key of Object.keys(limits)) {
    const cap = limits[key] ?? Number.POSITIVE_INFINITY;
    if (key.includes(':')) {
      full.set(key, cap);
      fullMeasures.add(measureOf(key));
    } else {
      measures.set(key, cap);
    }
  }
  caps = { measures, full, fullMeasures };
  compiled.set(limits, caps);
  return caps;
}

/** `limitFor` over a compiled table: a full-fingerprint key wins, else the measure's entry, else uncapped. */
function capOf(caps: Caps, fp: string, measure: string): number {
  // Stryker disable next-line ConditionalExpression: the set only spares looking a long fingerprint up in a table that has no full key of its measure
  if (caps.fullMeasures.has(measure)) {
    const cap = caps.full.get(fp);
    if (cap !== undefined) return cap;
  }
  return caps.measures.get(measure) ?? Number.POSITIVE_INFINITY;
}

function rankOf(measure: string): number {
  const rank = RANKED.indexOf(measure);
  return rank < 0 ? RANKED.length : rank;
}

type MarkConfig = Pick<CoreConfig, 'limits' | 'previewChars'>;

/** The mark of one fingerprint, its caps table already looked up. */
function markIn(fp: string, caps: Caps, previewChars: MarkConfig['previewChars'], measure: string): Mark {
  return new LazyMark(identityKey(fp), measure, capOf(caps, fp, measure), rankOf(measure), fp, previewChars);
}

/** The mark of one fingerprint under a configuration; `measure`, when the caller knows it (`exact` for every call), spares reading it. */
export function markOne(fp: string, cfg: MarkConfig, measure = measureOf(fp)): Mark {
  return markIn(fp, capsOf(cfg.limits), cfg.previewChars, measure);
}

/** The marks of a call's fingerprints: the caps table is looked up once for all of them. */
export function markAll(fps: readonly string[], cfg: MarkConfig): Mark[] {
  const caps = capsOf(cfg.limits);
  const marks: Mark[] = [];
  for (let at = 0; at < fps.length; at += 1) {
    const fp = fps[at] as string;
    marks.push(markIn(fp, caps, cfg.previewChars, measureOf(fp)));
  }
  return marks;
}

/**
 * The marks of a target reading, made once per reading and configuration. A
 * reading is shared by the calls of one text (recent.ts), and a mark changes
 * nothing once made, so a loop's calls share their target marks as well. They
 * are kept on the reading itself, in the fields it is made with: a WeakMap
 * entry per distinct text cost more than making the marks.
 */
const NO_MARKS: readonly Mark[] = Object.freeze([]);

export function markTarget(target: SharedReading, cfg: MarkConfig): readonly Mark[] {
  // No target (every file tool, and the shared frozen empty reading): nothing to make or keep.
  if (target.fps.length === 0) return NO_MARKS;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a cache: a reading is made for one configuration, so the marks are the same
  if (target.marks !== null && target.markedFor === cfg) return target.marks;
  const marks = markAll(target.fps, cfg);
  target.markedFor = cfg;
  target.marks = marks;
  return marks;
}

/** A call's marks, `exact:` first and then its target's, in one list made for the call. */
export function callMarks(exact: string, target: SharedReading, cfg: MarkConfig): Mark[] {
  const first = markOne(exact, cfg, 'exact');
  const targets = markTarget(target, cfg);
  // Made at its length, filled in: pushed onto `[first]`, it was made again, longer, at the first push.
  // Stryker disable next-line ArrayDeclaration: a list made empty and filled in holds the same marks
  const marks = new Array<Mark>(targets.length + 1);
  marks[0] = first;
  for (let at = 0; at < targets.length; at += 1) marks[at + 1] = targets[at] as Mark;
  return marks;
}
