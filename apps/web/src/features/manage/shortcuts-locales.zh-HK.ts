import type { ShortcutsMessages } from './shortcuts-locales';

export const zhHK: ShortcutsMessages = {
  manage: {
    search: {
      removeRecent: '刪除「{{keyword}}」',
    },
    pins: {
      title: '置頂客戶',
      pin: '置頂',
      pinned: '已置頂',
      pinToTop: '置頂到客戶列表',
      unpin: '取消置頂',
      full: '最多置頂 {{max}} 位客戶，請先取消一位再置頂',
    },
    recent: { clients: '最近查看' },
    saved: {
      title: '常用篩選',
      namePlaceholder: '為目前篩選命名',
      save: '儲存',
      rename: '重新命名',
      renameNamed: '重新命名「{{name}}」',
      delete: '刪除',
      deleteNamed: '刪除「{{name}}」',
      ok: '確定',
      cancel: '取消',
      nameRequired: '請輸入名稱',
      nameTaken: '已有名為「{{name}}」的常用篩選，請換一個名稱',
      full: '最多儲存 {{max}} 個常用篩選，請先刪除一個',
      failed: '儲存失敗，請重試',
    },
  },
};
