/**
 * The guess track's meta (the track: guess.ts): the `guess` setting, with its
 * refusals, schema node and card fields in English and Chinese, and what the
 * engine reads of the track without running it.
 */
import { stagesSetting } from '../setting/stages.js';
import type { CallTrackMeta } from './track.js';

/** The `guess` setting: off by default; `{}` turns the track on with its defaults. */
export const GUESS = stagesSetting('guess', { order: 7, cardOrder: 3 }, { warnAt: 4, limit: 6 }, {
  meaning: {
    en: {
      warnAt: 'how many values tried in one place may fail the same way before the advisory; {off} turns the advisory off',
      limit: 'how many values tried in one place may fail the same way before the next guess meets the gate; {off} advises only',
    },
    zh: {
      warnAt: '在同一位置试过多少个取值都以同样方式失败才给出建议；填 {off} 表示关闭建议',
      limit: '在同一位置试过多少个取值都以同样方式失败之后，下一次猜测遇到闸门；填 {off} 表示只给建议',
    },
  },
  schema: {
    track: 'The guess track (opt-in): one word enumerated by hand, failing the same way',
    warnAt: 'Values tried in one place, failing alike, that earn the advisory; null: none.',
    limit: 'Values tried in one place, failing alike, after which the next guess meets the gate; null advises only.',
  },
  card: {
    en: {
      track: { label: 'Guess track', hint: 'One word of a command enumerated by hand (a password, a port, a path), failing the same way each time.' },
      warnAt: { label: 'Advisory at', hint: 'Values tried in one place, failing alike, that earn the advisory.' },
      limit: { label: 'Gate after', hint: 'Values tried after which the next guess in that place meets the gate; off advises only.' },
    },
    zh: {
      track: { label: '猜测轨道', hint: '手工逐个尝试命令中的一个词（密码、端口、路径），每次都以同样方式失败。' },
      warnAt: { label: '建议阈值', hint: '在同一位置试过多少个取值都以同样方式失败时给出建议。' },
      limit: { label: '闸门阈值', hint: '试过多少个取值之后，在该位置的下一次猜测遇到闸门；off 表示只给建议。' },
    },
  },
});

export const guessMeta = {
  name: 'guess',
  description: 'One word of a command enumerated by hand (a password, a port, a path), failing the same way each time.',
  reads: 'calls',
  setting: GUESS,
  isOn: (cfg) => GUESS.of(cfg) !== null,
  // The file a read names: a path guessed by hand is a guess too.
  needs: () => ({ files: true }),
  summary: 'guessed',
} satisfies CallTrackMeta;
