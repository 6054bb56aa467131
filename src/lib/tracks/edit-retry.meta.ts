/**
 * The edit-retry track's meta (the track: edit-retry.ts): the `editRetry`
 * setting, with its refusals, schema node and card fields in English and
 * Chinese, and what the engine reads of the track without running it.
 */
import { stagesSetting } from '../setting/stages.js';
import type { CallTrackMeta } from './track.js';

/** The `editRetry` setting: off by default; `{}` turns the track on with its defaults. */
export const EDIT_RETRY = stagesSetting('editRetry', { order: 8, cardOrder: 4 }, { warnAt: 3, limit: 4 }, {
  meaning: {
    en: {
      warnAt: 'how many edits of one file may be rejected in a row before the advisory; {off} turns the advisory off',
      limit: 'how many edits of one file may be rejected in a row before the next edit of it meets the gate; {off} advises only',
    },
    zh: {
      warnAt: '同一文件的编辑连续被拒多少次才给出建议；填 {off} 表示关闭建议',
      limit: '同一文件的编辑连续被拒多少次之后，对它的下一次编辑遇到闸门；填 {off} 表示只给建议',
    },
  },
  schema: {
    track: 'The edit-retry track (opt-in): rejected edits of one file',
    warnAt: 'Rejected edits of one file in a row that earn the advisory; null: none.',
    limit: 'Rejected edits in a row after which the next edit of the file meets the gate; null advises only.',
  },
  card: {
    en: {
      track: { label: 'Edit-retry track', hint: 'Edits of one file rejected again and again, however they are respelled.' },
      warnAt: { label: 'Advisory at', hint: 'Rejected edits of one file in a row that earn the advisory.' },
      limit: { label: 'Gate after', hint: 'Rejected edits in a row after which the next edit of the file meets the gate; off advises only.' },
    },
    zh: {
      track: { label: '编辑重试轨道', hint: '对同一文件的编辑一再被拒，不论怎样改写。' },
      warnAt: { label: '建议阈值', hint: '同一文件的编辑连续被拒多少次时给出建议。' },
      limit: { label: '闸门阈值', hint: '连续被拒多少次之后，对该文件的下一次编辑遇到闸门；off 表示只给建议。' },
    },
  },
}, [{
  key: 'applied',
  advises: true,
  meaning: {
    en: 'how many times the same edit (the same text into the same file) may land before sending it again meets the gate; {off} leaves edits that land alone',
    zh: '同一编辑（同样的文本写入同一文件）最多生效多少次，之后再次发送它就遇到闸门；填 {off} 表示不管已生效的编辑',
  },
  schema: 'Times the same edit (the same text into the same file) may land, after which sending it again meets the gate; null leaves edits that land alone.',
  card: {
    en: { label: 'Same edit landed', hint: 'The same edit (the same text into the same file) landed this many times: sending it again meets the gate; off leaves it alone.' },
    zh: { label: '同一编辑生效次数', hint: '同一编辑（同样的文本写入同一文件）已生效这么多次：再次发送它就遇到闸门；off 表示不管。' },
  },
}, {
  key: 'resent',
  meaning: {
    en: 'how many times the same edit (the same text into the same file) may be rejected, the file neither taking an edit nor read in between, before sending it again meets the gate; {off} leaves it to the limit',
    zh: '同一编辑（同样的文本写入同一文件）在文件既没有接受编辑也没有被读取的情况下最多被拒多少次，之后再次发送它就遇到闸门；填 {off} 表示交给闸门阈值',
  },
  schema: 'Times the same edit (the same text into the same file) may be rejected, the file neither taking an edit nor read in between, after which sending it again meets the gate; null leaves it to limit.',
  card: {
    en: { label: 'Same edit rejected', hint: 'The same edit (the same text into the same file) rejected this many times, the file neither changed nor read: sending it again meets the gate; off leaves it to the gate above.' },
    zh: { label: '同一编辑被拒次数', hint: '同一编辑（同样的文本写入同一文件）在文件未变也未读取的情况下被拒这么多次：再次发送它就遇到闸门；off 表示交给上面的闸门阈值。' },
  },
}]);

export const editRetryMeta = {
  name: 'edit-retry',
  description: 'Edits of one file rejected again and again, however they are respelled.',
  reads: 'calls',
  setting: EDIT_RETRY,
  isOn: (cfg) => EDIT_RETRY.of(cfg) !== null,
  // The file an edit changes and a read looks at (str_replace_editor's `view` is a read, its other commands edits).
  // And, for the gates on an edit sent again, whether a shell line changed files (it may have undone an edit).
  needs: (cfg) => {
    const setting = EDIT_RETRY.of(cfg);
    return { files: true, changes: (setting?.applied ?? null) !== null || (setting?.resent ?? null) !== null };
  },
  summary: 'rejected',
} satisfies CallTrackMeta;
