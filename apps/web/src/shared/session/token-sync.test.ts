import { expect, test, vi } from 'vitest';
import { installTokenSync } from './token-sync';
import { useUser } from './user-store';

test('page show with a different stored token takes it and reloads; the same token does nothing', () => {
  useUser.getState().signIn({
    token: 'first',
    onlineStaff: true,
    bd: true,
    heco: false,
    tokenExpireTime: Date.now() + 60_000,
    staffEmail: { email: null },
    userId: 'chanwaiman',
    staffName: '陈伟文',
  });
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
