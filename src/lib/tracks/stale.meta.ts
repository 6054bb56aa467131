/**
 * The stale track's meta (the track: stale.ts): the `stale` setting, with its
 * refusals, schema node and card fields in English and Chinese, and what the
 * engine reads of the track without running it.
 */
import { stagesSetting } from '../setting/stages.js';
import type { CallTrackMeta } from './track.js';

/** The `stale` setting: off by default; `{}` turns the track on with its defaults. */
export const STALE = stagesSetting('stale', { order: 5, cardOrder: 1 }, { warnAt: 3, limit: 4 }, {
  meaning: {
    en: {
      warnAt: 'how many times in a row a call returns the same result before the advisory; {off} turns the advisory off',
      limit: 'how many times in a row a call may return the same result before the next one meets the gate; {off} advises only',
    },
    zh: {
      warnAt: '同一调用连续多少次返回相同结果才给出建议；填 {off} 表示关闭建议',
      limit: '同一调用连续多少次返回相同结果之后，下一次这样的调用遇到闸门；填 {off} 表示只给建议',
    },
  },
  schema: {
    track: 'The stale track (opt-in): the same call returning the same result',
    warnAt: 'Same results in a row that earn the advisory; null: none.',
    limit: 'Same results in a row after which the next such call meets the gate; null advises only.',
  },
  card: {
    en: {
      track: { label: 'Stale track', hint: 'The same call returning the same result with nothing changed in between.' },
      warnAt: { label: 'Advisory at', hint: 'Same results in a row that earn the advisory.' },
      limit: { label: 'Gate after', hint: 'Same results in a row after which the next such call meets the gate; off advises only.' },
    },
    zh: {
      track: { label: '停滞轨道', hint: '同一调用在中间什么都没改的情况下一再返回相同的结果。' },
      warnAt: { label: '建议阈值', hint: '连续多少次相同结果时给出建议。' },
      limit: { label: '闸门阈值', hint: '连续多少次相同结果之后，下一次这样的调用遇到闸门；off 表示只给建议。' },
    },
  },
}, [{
  key: 'backToBack',
  meaning: {
    en: 'how many times the same action (however spelled; an edit however indented) may return the same result back to back, no other call between (or two calls in turn, each answered as the round before, that many rounds), before the next one meets the gate; {off} leaves it to the limit',
    zh: '同一动作（无论怎么写；编辑无论怎么缩进）在中间没有别的调用的情况下接连返回相同结果多少次（或两个调用交替、每轮的结果都与上一轮相同，达到这么多轮）之后，下一次遇到闸门；填 {off} 表示交给闸门阈值',
  },
  schema: 'Times the same action (however spelled; an edit however indented) returns the same result back to back, no other call between (or two calls in turn, each answered as the round before, that many rounds), after which the next one meets the gate; null leaves it to limit.',
  card: {
    en: { label: 'Back to back', hint: 'The same action (however spelled, an edit however indented) answered the same way this many times with no call between, or two calls in turn answered as the round before this many rounds: the next one meets the gate; off leaves it to the gate above.' },
    zh: { label: '接连阈值', hint: '同一动作（无论怎么写，编辑无论怎么缩进）中间不隔别的调用、接连这么多次得到相同的回答，或两个调用交替这么多轮、每轮的回答都与上一轮相同：下一次遇到闸门；off 表示交给上面的闸门阈值。' },
  },
}, {
  key: 'cycle',
  meaning: {
    en: 'how many times in a row one call may return the same result, nothing changed, before any call answered before (nothing changed since) meets the gate, until something new comes back; {off} leaves each call to its own count',
    zh: '某个调用在什么都没改的情况下连续返回相同结果多少次之后，任何此前已得到过回答（其后没有改动）的调用都遇到闸门，直到有新的结果出现；填 {off} 表示每个调用各自计数',
  },
  schema: 'Same results in a row of one call, nothing changed, after which any call answered before (nothing changed since) meets the gate until something new comes back; null leaves each call to its own count.',
  card: {
    en: { label: 'Whole round', hint: 'Once one call has returned the same result this many times, every call the model already has the answer to meets the gate, until something new comes back or a file changes; off counts each call on its own.' },
    zh: { label: '整轮闸门', hint: '某个调用这么多次返回相同结果之后，模型已经得到过回答的每个调用都遇到闸门，直到出现新的结果或文件有改动；off 表示每个调用各自计数。' },
  },
}]);

export const staleMeta = {
  name: 'stale',
  description: 'The same call returning the same result, with nothing changed in between.',
  reads: 'calls',
  setting: STALE,
  isOn: (cfg) => STALE.of(cfg) !== null,
  // The change count, and the line's poll reading (a poll is no action it counts).
  needs: () => ({ changes: true, line: true }),
  summary: 'same result',
} satisfies CallTrackMeta;
