import { beforeEach, expect, test } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { BrowserRouter } from 'react-router';
import { oneOf } from './page-state';
import { useUrlState } from './url-state';

const SIDES = ['all', 'buy', 'sell'] as const;
const wrapper = ({ children }: { children: ReactNode }) => <BrowserRouter>{children}</BrowserRouter>;
const useSide = () => useUrlState<(typeof SIDES)[number]>('side', 'all', oneOf(SIDES));

beforeEach(() => window.history.replaceState(null, '', '/client/information/accountDetail/transaction?customerId=7'));

test('a filter lives in the URL: set replaces the entry, keeps the rest of the query, leaves the default out', () => {
  const lengthBefore = window.history.length;
  const { result } = renderHook(useSide, { wrapper });
  expect(result.current[0]).toBe('all');
  act(() => result.current[1]('buy'));
  expect(result.current[0]).toBe('buy');
  expect(window.location.search).toBe('?customerId=7&side=buy');
  act(() => result.current[1]('all'));
  expect(window.location.search).toBe('?customerId=7');
  expect(window.history.length).toBe(lengthBefore);
});

test('the URL is read back (back, forward, reload), and a crafted value reads as the default', () => {
  window.history.replaceState(null, '', '/client/information/accountDetail/transaction?customerId=7&side=sell');
  expect(renderHook(useSide, { wrapper }).result.current[0]).toBe('sell');
  window.history.replaceState(null, '', '/client/information/accountDetail/transaction?customerId=7&side=%3Cscript%3E');
  expect(renderHook(useSide, { wrapper }).result.current[0]).toBe('all');
});
