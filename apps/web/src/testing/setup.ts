import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';
import '../shared/i18n/i18n';
import { installAntdMobileRenderer } from '../shared/ui/antd-render';

installAntdMobileRenderer();

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
});
