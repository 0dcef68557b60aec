import { afterEach } from 'vitest';
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
