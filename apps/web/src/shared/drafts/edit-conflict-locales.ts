import { registerLocales } from '../i18n/i18n';
import { byLanguage, type Entries, type InOneLanguage } from '../i18n/by-language';

const EDIT_CONFLICT = {
  draftChoice: {
    title: [
      '这里有 {{count}} 份未保存的草稿，来自其他窗口',
      '這裏有 {{count}} 份未儲存的草稿，來自其他視窗',
      '{{count}} unsaved drafts of this, from other windows',
    ],
    body: [
      '请选择要继续编辑的一份；其余的仍会保留，下次打开时可再选。',
      '請選擇要繼續編輯的一份；其餘的仍會保留，下次打開時可再選。',
      'Choose the one to go on with; the others stay, to choose from next time.',
    ],
    savedAt: ['最后输入于 {{time}}', '最後輸入於 {{time}}', 'Last typed {{time}}'],
    none: ['都不用，从已保存的内容开始', '都不用，從已儲存的內容開始', 'None of them: start from what is saved'],
  },
  editConflict: {
    title: ['您编辑期间，这里已被保存过新的版本', '您編輯期間，這裏已被儲存過新的版本', 'A newer version was saved while you were editing'],
    body: [
      '您的修改还没有保存，也都还在。下列内容双方都改过，请逐项选择要保留哪一个：',
      '您的修改還沒有儲存，也都還在。下列內容雙方都改過，請逐項選擇要保留哪一個：',
      'Your changes are not saved yet, and nothing you typed is lost. Both of you changed the fields below: choose what to keep in each.',
    ],
    theirs: ['已保存的版本', '已儲存的版本', 'Saved version'],
    mine: ['您的修改', '您的修改', 'Your change'],
    both: ['两者都保留', '兩者都保留', 'Keep both'],
    empty: ['（空）', '（空）', '(empty)'],
    listSeparator: ['、', '、', ', '],
    taken: [
      '只在已保存的版本中改动、将一并采用：{{fields}}',
      '只在已儲存的版本中改動、將一併採用：{{fields}}',
      'Changed only in the saved version, taken as saved: {{fields}}',
    ],
    apply: ['按所选合并，继续编辑', '按所選合併，繼續編輯', 'Merge as chosen and keep editing'],
    chooseEach: ['请为每一项选择后再继续', '請為每一項選擇後再繼續', 'Choose for each field to go on'],
    merged: [
      '已与最新版本合并：{{fields}}已采用已保存的内容，您的其他修改都保留着。请检查后保存。',
      '已與最新版本合併：{{fields}}已採用已儲存的內容，您的其他修改都保留着。請檢查後儲存。',
      'Merged with the latest version: {{fields}} now as saved, your other changes kept. Check, then save.',
    ],
    mergedMineOnly: [
      '已与最新版本合并，您的修改都保留着。请检查后保存。',
      '已與最新版本合併，您的修改都保留着。請檢查後儲存。',
      'Merged with the latest version, all your changes kept. Check, then save.',
    ],
  },
} satisfies Entries;

void registerLocales(byLanguage(EDIT_CONFLICT));

declare module '../i18n/translator' {
  interface StringSets {
    editConflict: InOneLanguage<typeof EDIT_CONFLICT>;
  }
}
