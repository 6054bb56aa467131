/**
 * A mark is one fingerprint of the current call in the form the breaker works
 * with: its identity key for counting (P6), its cap, its tie-break rank, and the
 * two quotations messages need. The full text is dropped once marks exist.
 */
import type { BreakerConfig } from './config.js';
import { limitFor, measureRank } from './fingerprint.js';
import { identityKey } from './identity.js';
import { preview } from './message.js';
import { summaryLabel } from './notice.js';

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

export function markAll(fps: readonly string[], cfg: Pick<BreakerConfig, 'limits' | 'previewChars'>): Mark[] {
  return fps.map((fp) => ({
    key: identityKey(fp),
    cap: limitFor(fp, cfg.limits),
    rank: measureRank(fp),
    quote: preview(fp, cfg.previewChars),
    label: summaryLabel(fp),
  }));
}
