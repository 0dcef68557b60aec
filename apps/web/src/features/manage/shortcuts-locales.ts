import { byLanguage, type Entries, type InOneLanguage } from '../../shared/i18n/by-language';
import { registerLocales } from '../../shared/i18n/i18n';

/**
 * The strings of pins, recents and saved filters (ADR 0049), apart from the list's: only the pieces that load
 * when a manager has some (and the pages that edit them) import them, so they are not first-screen JavaScript.
 */
const shortcuts = {
  search: { removeRecent: ['删除“{{keyword}}”', '刪除「{{keyword}}」', 'Remove "{{keyword}}"'] },
  pins: {
    title: ['置顶客户', '置頂客戶', 'Pinned'],
    pinToTop: ['置顶到客户列表', '置頂到客戶列表', 'Pin to the client list'],
    unpin: ['取消置顶', '取消置頂', 'Unpin'],
    full: [
      '最多置顶 {{max}} 位客户，请先取消一位再置顶',
      '最多置頂 {{max}} 位客戶，請先取消一位再置頂',
      'You can pin up to {{max}} clients. Unpin one first.',
    ],
  },
  recent: { clients: ['最近查看', '最近查看', 'Recently viewed'] },
  saved: {
    title: ['常用筛选', '常用篩選', 'Saved filters'],
    namePlaceholder: ['给当前筛选起个名字', '為目前篩選命名', 'Name these filters'],
    save: ['保存', '儲存', 'Save'],
    rename: ['重命名', '重新命名', 'Rename'],
    renameNamed: ['重命名“{{name}}”', '重新命名「{{name}}」', 'Rename "{{name}}"'],
    delete: ['删除', '刪除', 'Delete'],
    deleteNamed: ['删除“{{name}}”', '刪除「{{name}}」', 'Delete "{{name}}"'],
    ok: ['确定', '確定', 'OK'],
    nameRequired: ['请输入名称', '請輸入名稱', 'Enter a name'],
    nameTaken: [
      '已有名为“{{name}}”的常用筛选，请换一个名字',
      '已有名為「{{name}}」的常用篩選，請換一個名稱',
      'You already have saved filters named "{{name}}". Choose another name.',
    ],
    full: [
      '最多保存 {{max}} 个常用筛选，请先删除一个',
      '最多儲存 {{max}} 個常用篩選，請先刪除一個',
      'You can keep up to {{max}} saved filters. Delete one first.',
    ],
    failed: ['保存失败，请重试', '儲存失敗，請重試', 'Could not save. Please try again.'],
  },
} satisfies Entries;

void registerLocales(byLanguage({ manage: shortcuts }));

declare module '../../shared/i18n/translator' {
  interface StringSets {
    shortcuts: InOneLanguage<{ manage: typeof shortcuts }>;
  }
}
