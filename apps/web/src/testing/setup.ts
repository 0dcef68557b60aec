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
// The app imports Toast and Dialog on first use. Loaded here, that first use resolves from the module cache:
// a test that ends while a failure toast is still loading no longer has the import finish after its
// environment is gone (CI, stop 30: "Cannot load tslib … after the environment was torn down").
await Promise.all([import('../shared/ui/antd-toast'), import('../shared/ui/antd-dialog')]);

/**
 * antd-mobile's Dialog and Toast render into roots of their own, which testing-library's cleanup does not
 * unmount, and close with an animation. One left on screen by a test is still in the DOM when the next
 * test starts: its buttons match the next test's queries (CI once clicked the previous test's closing
 * "确认绑定" and waited 5 s for a dialog that never answered), and a file's last one would reach React after
 * the file's jsdom is gone ("window is not defined"). Close them after every test and wait until they are gone.
 */
async function closeImperativeOverlays() {
  if (!document.querySelector(OVERLAY_SELECTOR)) return;
  const [{ default: Dialog }, { default: Toast }] = await Promise.all([
    import('../shared/ui/antd-dialog'),
    import('../shared/ui/antd-toast'),
  ]);
  const deadline = Date.now() + 3_000;
  // Cleared again on every turn: a test's last promise (a refused request answered by a dialog) can open
  // one after the first clear.
  while (document.querySelector(OVERLAY_SELECTOR) && Date.now() < deadline) {
    Dialog.clear();
    Toast.clear();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  // Still there (a closing animation starved of frames on a loaded machine: twice in full runs, never
  // alone): take its container out of the page, so the next test cannot click it. What a test asserts is
  // decided before this point.
  for (const left of document.querySelectorAll(OVERLAY_SELECTOR)) {
    let container: Element = left;
    while (container.parentElement && container.parentElement !== document.body) container = container.parentElement;
    container.remove();
  }
}

const OVERLAY_SELECTOR = '.adm-dialog, .adm-toast-mask, .adm-mask';

afterEach(async () => {
  cleanup();
  await closeImperativeOverlays();
  localStorage.clear();
  sessionStorage.clear();
});

// An overlay's root unmounts in React's scheduler (an Immediate), not in act(): after a file's last test it can
// run once the file's jsdom is gone ("window is not defined", CI stop 46, mot-rank.test.tsx). Let it run first.
afterAll(() => new Promise((resolve) => setTimeout(resolve, 50)));
