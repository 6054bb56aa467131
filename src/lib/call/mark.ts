/**
 * A mark is one fingerprint of the current call in the form the breaker works
 * with: its identity key for counting (P6), its cap, its tie-break rank, and the
 * two quotations messages need. Only hits and advisories read the quotations,
 * so they are made on first reading; a mark lives as long as its call.
 */
import type { CoreConfig } from '../setting/core.js';
import { preview } from '../text/message.js';
import { summaryLabel } from '../text/notice.js';
import { measureOf, RANKED, type TargetReading } from './fingerprint.js';
import { identityKey, lookupKey } from './identity.js';

export interface Mark {
  readonly key: string;
  /** The key's measure (`exact`, `cmd`, `host`, …), read once: the tracks ask for it on every judge. */
  readonly measure: string;
  readonly cap: number;
  readonly rank: number;
  /** The fingerprint through the preview rule, for message bodies. */
  readonly quote: string;
  /** The fingerprint cut for a notice summary (P7). */
  readonly label: string;
  /** A short stand-in for `key`, for the books that only look keys up (call/identity.ts `lookupKey`). */
  readonly lookup: string;
}

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
  for (const fp of fps) marks.push(markIn(fp, caps, cfg.previewChars, measureOf(fp)));
  return marks;
}

/**
 * The marks of a target reading, made once per reading and configuration. A
 * reading is shared by the calls of one text (recent.ts), and a mark changes
 * nothing once made, so a loop's calls share their target marks as well. They
 * are kept on the reading itself, under a key of this module's: a WeakMap
 * entry per distinct text cost more than making the marks.
 */
const MARKS = Symbol('marks');

interface Marked {
  [MARKS]?: { readonly cfg: MarkConfig; readonly marks: readonly Mark[] };
}

const NO_MARKS: readonly Mark[] = Object.freeze([]);

export function markTarget(target: TargetReading, cfg: MarkConfig): readonly Mark[] {
  // No target (every file tool, and the shared frozen empty reading): nothing to make or keep.
  if (target.fps.length === 0) return NO_MARKS;
  const slot = target as TargetReading & Marked;
  const known = slot[MARKS];
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a cache: a reading is made for one configuration, so the marks are the same
  if (known !== undefined && known.cfg === cfg) return known.marks;
  const marks = markAll(target.fps, cfg);
  // Stryker disable next-line ObjectLiteral: a cache entry that never matches only means the marks are made again, the same
  slot[MARKS] = { cfg, marks };
  return marks;
}
