import { afterAll, afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { LANGUAGES, loadLanguage } from '../shared/i18n/i18n';
import { installAntdMobileRenderer } from '../shared/ui/antd-render';

installAntdMobileRenderer();
// Toasts and dialogs load lazily (they are not on the first screen); under a loaded CI machine that first
// import can exceed testing-library's 1 s default, so async queries wait up to 5 s.
configure({ asyncUtilTimeout: 5000 });
// Tests switch languages with i18n.changeLanguage directly: have every language's core strings at hand.
for (const language of LANGUAGES) await loadLanguage(language);

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
});

/**
 * antd-mobile's Dialog and Toast render into roots of their own, which testing-library's cleanup does not
 * unmount, and animate with timers. A file whose last test ends with one on screen would otherwise let
 * that animation reach React after the file's jsdom is gone ("window is not defined", an unhandled
 * error that fails the run). Close them and let the close animation finish while the window exists.
 */
afterAll(async () => {
  if (!document.querySelector('.adm-dialog, .adm-toast-mask, .adm-mask')) return;
  const [{ default: Dialog }, { default: Toast }] = await Promise.all([
    import('../shared/ui/antd-dialog'),
    import('../shared/ui/antd-toast'),
  ]);
  Dialog.clear();
  Toast.clear();
  await new Promise((resolve) => setTimeout(resolve, 800));
});
