/** A lazy piece of pins, recents or saved filters, once its strings in the current language are in (shortcuts-locales.ts). */
export const withShortcutStrings = async <Module>(module: Promise<Module>) => {
  const [loaded] = await Promise.all([module, import('./shortcuts-locales').then((locales) => locales.shortcutsLocalesReady)]);
  return loaded;
};
