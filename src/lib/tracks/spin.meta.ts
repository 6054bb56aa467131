/**
 * The spin track's meta (the track: spin.ts): the `spin` setting, with its
 * refusals, schema node and card fields in English and Chinese, and what the
 * engine reads of the track without running it.
 */
import { stagesSetting } from '../setting/stages.js';
import type { CallTrackMeta } from './track.js';

/** The `spin` setting: off by default; `{}` turns the track on with its defaults. */
export const SPIN = stagesSetting('spin', { order: 6, cardOrder: 2 }, { warnAt: 5, limit: 7 }, {
  meaning: {
    en: {
      warnAt: 'how many calls in a row may return nothing new before the advisory; {off} turns the advisory off',
      limit: 'how many calls in a row may return nothing new before the next repeat meets the gate; {off} advises only',
    },
    zh: {
      warnAt: '连续多少次调用没有返回新内容才给出建议；填 {off} 表示关闭建议',
      limit: '连续多少次调用没有返回新内容之后，下一次重复调用遇到闸门；填 {off} 表示只给建议',
    },
  },
  schema: {
    track: 'The spin track (opt-in): a stretch of calls that return nothing new',
    warnAt: 'Calls in a row returning nothing new that earn the advisory; null: none.',
    limit: 'Calls in a row returning nothing new after which the next repeat meets the gate; null advises only.',
  },
  card: {
    en: {
      track: { label: 'Spin track', hint: 'A stretch of calls, whatever they are, each returning what it returned before.' },
      warnAt: { label: 'Advisory at', hint: 'Calls in a row returning nothing new that earn the advisory.' },
      limit: { label: 'Gate after', hint: 'Calls in a row returning nothing new after which the next repeat meets the gate; off advises only.' },
    },
    zh: {
      track: { label: '空转轨道', hint: '一连串调用，不论是什么，每次都返回之前返回过的内容。' },
      warnAt: { label: '建议阈值', hint: '连续多少次调用没有新内容时给出建议。' },
      limit: { label: '闸门阈值', hint: '连续多少次调用没有新内容之后，下一次重复调用遇到闸门；off 表示只给建议。' },
    },
  },
});

export const spinMeta = {
  name: 'spin',
  description: 'A stretch of calls, whatever they are, each returning what it returned before.',
  reads: 'calls',
  setting: SPIN,
  isOn: (cfg) => SPIN.of(cfg) !== null,
  // Whether a call writes: a new write is what the model does about the spin, never part of it.
  needs: () => ({ changes: true }),
  summary: 'spin',
} satisfies CallTrackMeta;
