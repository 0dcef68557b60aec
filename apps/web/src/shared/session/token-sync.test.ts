import { expect, test, vi } from 'vitest';
import { installTokenSync } from './token-sync';
import { useUser } from './user-store';
import { signedIn } from '../../testing/fake-api';

test('page show with a different stored token takes it and reloads; the same token does nothing', () => {
  useUser.getState().signIn(signedIn({ token: 'first' }));
  const reload = vi.fn();
  const uninstall = installTokenSync(window, reload);

  window.dispatchEvent(new Event('pageshow'));
  expect(reload).not.toHaveBeenCalled();

  localStorage.setItem('token', 'second');
  window.dispatchEvent(new Event('pageshow'));
  expect(reload).toHaveBeenCalledTimes(1);
  expect(useUser.getState().token).toBe('second');
  uninstall();
});
