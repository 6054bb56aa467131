/**
 * A mark is one fingerprint of the current call in the form the breaker works
 * with: its identity key for counting (P6), its cap, its tie-break rank, and the
 * two quotations messages need. Only hits and advisories read the quotations,
 * so they are made on first reading; a mark lives as long as its call.
 */
import type { BreakerConfig } from '../config/config.js';
import { preview } from '../text/message.js';
import { summaryLabel } from '../text/notice.js';
import { measureOf, RANKED } from './fingerprint.js';
import { identityKey } from './identity.js';

export interface Mark {
  readonly key: string;
  readonly cap: number;
  readonly rank: number;
  /** The fingerprint through the preview rule, for message bodies. */
  readonly quote: string;
  /** The fingerprint cut for a notice summary (P7). */
  readonly label: string;
}

/** Finite cap: the measure takes part in advisories and in the failure track. */
export function isEnabled(mark: Mark): boolean {
  return Number.isFinite(mark.cap);
}

/** The quotations are computed from the fingerprint when first read; the getters live on the prototype, not on each mark. */
class LazyMark implements Mark {
  #quote: string | undefined;
  #label: string | undefined;

  constructor(
    readonly key: string,
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

export function markAll(fps: readonly string[], cfg: Pick<BreakerConfig, 'limits' | 'previewChars'>): Mark[] {
  const caps = capsOf(cfg.limits);
  return fps.map((fp) => {
    const measure = measureOf(fp);
    return new LazyMark(identityKey(fp), capOf(caps, fp, measure), rankOf(measure), fp, cfg.previewChars);
  });
}
