import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { endpoints } from '../shared/api/contract';
import { request } from '../shared/api/request';
import { APP_LANGUAGES } from '@broker/contract';
import { LANGUAGES, changeLanguage, currentLanguage } from '../shared/i18n/i18n';
import { useUser } from '../shared/session/user-store';
import { signedIn } from '../testing/fake-api';
import MeSheet from './me-sheet';

vi.mock('../shared/api/request', () => ({ request: vi.fn() }));
const requestMock = vi.mocked(request);

beforeEach(async () => {
  await changeLanguage('zh-CN');
  requestMock.mockResolvedValue({ push: true, quietHours: null });
});
afterEach(async () => {
  requestMock.mockReset();
  await changeLanguage('zh-CN');
});

const renderSheet = () =>
  render(
    <MemoryRouter>
      <MeSheet visible onClose={() => undefined} />
    </MemoryRouter>,
  );

test("choosing a language tells the server, which writes the manager's WeCom cards in it (ADR 0042)", async () => {
  useUser.getState().signIn(signedIn({ token: 'a-token' }));
  renderSheet();
  fireEvent.click(screen.getByRole('radio', { name: 'English' }));
  await waitFor(() => expect(currentLanguage()).toBe('en'));
  expect(requestMock).toHaveBeenCalledWith(endpoints.setMotPushSetting, { language: 'en' }, { silent: true });
});

test('signed out, the language changes on this device only: there is nobody to tell', async () => {
  useUser.getState().signOut();
  renderSheet();
  fireEvent.click(screen.getByRole('radio', { name: '繁體中文' }));
  await waitFor(() => expect(currentLanguage()).toBe('zh-HK'));
  expect(requestMock).not.toHaveBeenCalled();
});

test('the languages the app offers are the ones the server keeps (the contract’s)', () => {
  expect(LANGUAGES).toEqual(APP_LANGUAGES);
});
