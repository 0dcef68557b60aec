import { expect, test, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { Card } from './card';
import { ErrorState } from './states';

test('a card shows title, description, info icon, more link and label/value rows', () => {
  const onInfo = vi.fn();
  render(
    <MemoryRouter>
      <Card
        title="资产"
        titleDesc="截至今日"
        onInfo={onInfo}
        infoLabel="说明"
        more={{ label: '更多', to: '/client/information/accountDetail/holdingStock' }}
        rows={[
          { label: '总资产', value: '1,234.00' },
          { label: '现金', value: '-' },
        ]}
      />
    </MemoryRouter>,
  );
  expect(screen.getByRole('heading', { name: /资产/ })).toBeTruthy();
  expect(screen.getByText('截至今日')).toBeTruthy();
  expect(screen.getByRole('link', { name: /更多/ }).getAttribute('href')).toBe('/client/information/accountDetail/holdingStock');
  expect(screen.getByText('总资产').nextElementSibling?.textContent).toBe('1,234.00');
  expect(screen.getByText('现金').nextElementSibling?.textContent).toBe('-');
  fireEvent.click(screen.getByRole('button', { name: '说明' }));
  expect(onInfo).toHaveBeenCalledTimes(1);
});

test('a card without info or more shows neither', () => {
  render(
    <MemoryRouter>
      <Card title="概览" />
    </MemoryRouter>,
  );
  expect(screen.queryByRole('button')).toBeNull();
  expect(screen.queryByRole('link')).toBeNull();
});

test('the error state offers a retry', () => {
  const onRetry = vi.fn();
  render(<ErrorState onRetry={onRetry} />);
  expect(screen.getByText('加载失败')).toBeTruthy();
  fireEvent.click(screen.getByRole('button', { name: '重试' }));
  expect(onRetry).toHaveBeenCalledTimes(1);
});
