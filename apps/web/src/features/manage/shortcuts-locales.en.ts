import type { ShortcutsMessages } from './shortcuts-locales';

export const en: ShortcutsMessages = {
  manage: {
    search: {
      removeRecent: 'Remove "{{keyword}}"',
    },
    pins: {
      title: 'Pinned',
      pin: 'Pin',
      pinned: 'Pinned',
      pinToTop: 'Pin to the client list',
      unpin: 'Unpin',
      full: 'You can pin up to {{max}} clients. Unpin one first.',
    },
    recent: { clients: 'Recently viewed' },
    saved: {
      title: 'Saved filters',
      namePlaceholder: 'Name these filters',
      save: 'Save',
      rename: 'Rename',
      renameNamed: 'Rename "{{name}}"',
      delete: 'Delete',
      deleteNamed: 'Delete "{{name}}"',
      ok: 'OK',
      cancel: 'Cancel',
      nameRequired: 'Enter a name',
      nameTaken: 'You already have saved filters named "{{name}}". Choose another name.',
      full: 'You can keep up to {{max}} saved filters. Delete one first.',
      failed: 'Could not save. Please try again.',
    },
  },
};
