import { afterAll, describe, expect, test, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { i18n, type Language } from '../i18n/i18n';
import { ApiError, ClientErrorCode } from '../api/api-error';
import { ErrorCode } from '../api/contract';
import { LoadFailedState, type LoadSubject } from './load-failed-state';

afterAll(() => i18n.changeLanguage('zh-CN'));

const notFound = new ApiError(ErrorCode.NOT_FOUND, '要查看的内容不存在或已被移除', '/api/x');
const forbidden = new ApiError(ErrorCode.FORBIDDEN, '无权查看该内容', '/api/x');

/** What each kind of page says when what it opened is not there, or not the reader's, in each language. */
const FINAL_WORDING: Record<Language, Record<'notFound' | 'forbidden', Record<Exclude<LoadSubject, 'content'>, string>>> = {
  'zh-CN': {
    notFound: { client: '客户不存在或已被移除', event: '该事件不存在或已被移除', record: '该记录不存在或已被删除' },
    forbidden: { client: '无权查看该客户', event: '无权查看该事件', record: '无权查看该记录' },
  },
  'zh-HK': {
    notFound: { client: '客戶不存在或已被移除', event: '該事件不存在或已被移除', record: '該記錄不存在或已被刪除' },
    forbidden: { client: '無權查看該客戶', event: '無權查看該事件', record: '無權查看該記錄' },
  },
  en: {
    notFound: {
      client: 'This client does not exist or was removed',
      event: 'This event does not exist or was removed',
      record: 'This record does not exist or was deleted',
    },
    forbidden: {
      client: 'You are not allowed to view this client',
      event: 'You are not allowed to view this event',
      record: 'You are not allowed to view this record',
    },
  },
};

describe('one failed-load state for every page (issue 22.2)', () => {
  for (const language of ['zh-CN', 'zh-HK', 'en'] as const)
    for (const subject of ['client', 'event', 'record'] as const)
      test(`${language}: a missing or forbidden ${subject} is named, with a way out and no retry`, async () => {
        await i18n.changeLanguage(language);
        for (const [reason, error] of [
          ['notFound', notFound],
          ['forbidden', forbidden],
        ] as const) {
          const onLeave = vi.fn();
          const onRetry = vi.fn();
          const { unmount } = render(
            <LoadFailedState error={error} subject={subject} onRetry={onRetry} leave={{ label: 'leave', onLeave }} />,
          );
          expect(screen.getByTestId('load-unavailable').dataset.reason).toBe(reason);
          expect(screen.getByText(FINAL_WORDING[language][reason][subject])).toBeTruthy();
          fireEvent.click(screen.getByRole('button', { name: 'leave' }));
          expect(onLeave).toHaveBeenCalledOnce();
          expect(screen.queryByRole('button', { name: i18n.t('state.retry') })).toBeNull();
          unmount();
        }
      });

  test("a business code shows the server's message (SPEC.md §8), not a network hint, and offers a retry", async () => {
    await i18n.changeLanguage('zh-CN');
    const onRetry = vi.fn();
    render(
      <LoadFailedState
        error={new ApiError('090502', 'the customer service is being maintained until 18:00', '/api/x')}
        subject="client"
        onRetry={onRetry}
      />,
    );
    expect(screen.getByTestId('error-state').textContent).toContain('the customer service is being maintained until 18:00');
    expect(screen.getByTestId('error-state').textContent).not.toContain('请检查网络');
    fireEvent.click(screen.getByRole('button', { name: '重试' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  test('no answer at all says so in its own words; a failure that is not an API answer suggests the network', async () => {
    await i18n.changeLanguage('en');
    const { unmount } = render(
      <LoadFailedState
        error={new ApiError(ClientErrorCode.NETWORK, i18n.t('errors.network'), '/api/x')}
        subject="event"
        onRetry={() => {}}
      />,
    );
    expect(screen.getByTestId('error-state').textContent).toContain(i18n.t('errors.network'));
    unmount();
    render(<LoadFailedState error={new TypeError('Failed to fetch')} subject="event" onRetry={() => {}} />);
    expect(screen.getByTestId('error-state').textContent).toContain('Check your connection and try again');
  });

  test('a feature that knows better explains it itself (KYC)', () => {
    render(
      <LoadFailedState error={new ApiError('091001', 'x', '/api/x')} subject="client" description="bound elsewhere" onRetry={() => {}} />,
    );
    expect(screen.getByTestId('error-state').textContent).toContain('bound elsewhere');
  });
});
