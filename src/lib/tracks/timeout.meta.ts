/**
 * The timeout track's meta (the track: timeout.ts): the `timeouts` setting,
 * with its refusals, schema node and card fields in English and Chinese (the
 * environment track runs under it too), and what the engine reads of the
 * track without running it.
 */
import { stagesSetting } from '../setting/stages.js';
import type { CallTrackMeta } from './track.js';

/** The `timeouts` setting: off by default; `{}` turns the track on with its defaults (and the environment track with it). */
export const TIMEOUTS = stagesSetting('timeouts', { order: 9, cardOrder: 5 }, { warnAt: 3, limit: null }, {
  meaning: {
    en: {
      warnAt: 'how many times one program may run out of time this turn before the advisory; {off} turns the advisory off',
      limit: 'how many times one program may run out of time this turn before its next run meets the gate; {off} advises only',
    },
    zh: {
      warnAt: '同一程序在本回合超时多少次才给出建议；填 {off} 表示关闭建议',
      limit: '同一程序在本回合超时多少次之后，它的下一次运行遇到闸门；填 {off} 表示只给建议',
    },
  },
  schema: {
    track: 'The timeout track (opt-in): one program running out of time again',
    warnAt: 'Time-outs of one program this turn that earn the advisory; null: none.',
    limit: 'Time-outs after which the next run of the program meets the gate; null advises only.',
  },
  card: {
    en: {
      track: { label: 'Timeout track', hint: 'One program running out of time again, whatever its flags; or different commands timing out in a row.' },
      warnAt: { label: 'Advisory at', hint: 'Time-outs of one program this turn that earn the advisory.' },
      limit: { label: 'Gate after', hint: 'Time-outs after which the next run of the program meets the gate; off advises only.' },
    },
    zh: {
      track: { label: '超时轨道', hint: '同一程序一再超时，不论带什么参数；或者接连不同的命令都超时。' },
      warnAt: { label: '建议阈值', hint: '同一程序在本回合超时多少次时给出建议。' },
      limit: { label: '闸门阈值', hint: '超时多少次之后，该程序的下一次运行遇到闸门；off 表示只给建议。' },
    },
  },
}, [{
  key: 'respelled',
  advises: true,
  meaning: {
    en: 'how many times one program may run out of time this turn, each run spelled anew, one of them after a run of it finished in time, before its next run meets the gate; {off} leaves it to the limit',
    zh: '同一程序本回合有多少次超时（每次都换了写法，其中至少一次发生在它的某次运行按时完成之后）之后，它的下一次运行遇到闸门；填 {off} 表示交给闸门阈值',
  },
  schema: 'Time-outs of one program this turn, each a new spelling of it, one of them after a run of it finished in time, after which its next run meets the gate (the advisory comes as it arms); null leaves it to limit.',
  card: {
    en: { label: 'Respelled after a fit', hint: 'One program run out of time this many times, each with new flags or code, after a smaller run of it finished: its next run meets the gate; off leaves it to the gate above.' },
    zh: { label: '改写后超时', hint: '同一程序每次换了参数或代码、这么多次超时，且此前它较小的一次运行已经完成：它的下一次运行遇到闸门；off 表示交给上面的闸门阈值。' },
  },
}]);

export const timeoutMeta = {
  name: 'timeout',
  description: 'One program running out of time again and again, whatever its flags.',
  reads: 'calls',
  setting: TIMEOUTS,
  isOn: (cfg) => TIMEOUTS.of(cfg) !== null,
  // The programs a shell line runs, from the line's one split.
  needs: () => ({ line: true }),
  summary: 'timed out',
} satisfies CallTrackMeta;
