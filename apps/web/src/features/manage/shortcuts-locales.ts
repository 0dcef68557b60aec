import { registerLocales } from '../../shared/i18n/i18n';

/**
 * The strings of pins, recents and saved filters (ADR 0049), apart from the list's: only the pieces that load
 * when a manager has some (and the pages that edit them) need them, so they are not first-screen JavaScript.
 */
export const zhCN = {
  manage: {
    search: {
      removeRecent: '删除“{{keyword}}”',
    },
    pins: {
      title: '置顶客户',
      pin: '置顶',
      pinned: '已置顶',
      pinToTop: '置顶到客户列表',
      unpin: '取消置顶',
      full: '最多置顶 {{max}} 位客户，请先取消一位再置顶',
    },
    recent: { clients: '最近查看' },
    saved: {
      title: '常用筛选',
      namePlaceholder: '给当前筛选起个名字',
      save: '保存',
      rename: '重命名',
      renameNamed: '重命名“{{name}}”',
      delete: '删除',
      deleteNamed: '删除“{{name}}”',
      ok: '确定',
      cancel: '取消',
      nameRequired: '请输入名称',
      nameTaken: '已有名为“{{name}}”的常用筛选，请换一个名字',
      full: '最多保存 {{max}} 个常用筛选，请先删除一个',
      failed: '保存失败，请重试',
    },
  },
};

export type ShortcutsMessages = typeof zhCN;

export const shortcutsLocalesReady = registerLocales({
  'zh-CN': zhCN,
  'zh-HK': () => import('./shortcuts-locales.zh-HK').then((module) => module.zhHK),
  en: () => import('./shortcuts-locales.en').then((module) => module.en),
});

declare module '../../shared/i18n/translator' {
  interface StringSets {
    shortcuts: ShortcutsMessages;
  }
}
