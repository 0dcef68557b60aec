import { expect, test } from 'vitest';
import { announceBind, announceUnbind, kycTarget, profileTarget } from './kyc-transitions';

test('bind writes kyc_customerId, then a kyc value without "unbind" that changes every time', () => {
  announceBind(42, localStorage, 1000);
  expect(localStorage.getItem('kyc_customerId')).toBe('42');
  const first = localStorage.getItem('kyc');
  expect(first).toBeTruthy();
  expect(first).not.toContain('unbind');
  announceBind(42, localStorage, 2000);
  expect(localStorage.getItem('kyc')).not.toBe(first);
});

test('unbind writes a kyc value containing "unbind" and drops kyc_customerId', () => {
  announceBind(7);
  announceUnbind(7);
  expect(localStorage.getItem('kyc')).toContain('unbind');
  expect(localStorage.getItem('kyc_customerId')).toBeNull();
});

test('what a listening page makes of the values it sees', () => {
  announceBind(9);
  expect(kycTarget(localStorage.getItem('kyc'), '', localStorage.getItem('kyc_customerId'))).toBe('/client/information?customerId=9');
  announceUnbind(9);
  expect(kycTarget(localStorage.getItem('kyc'), '?redirectPage=%2Fmot%2FsingleClient', null)).toBe(
    '/kyc/index?redirectPage=%2Fmot%2FsingleClient',
  );
});

test('the profile target keeps a redirectPage that already has a query', () => {
  expect(profileTarget(null, 3)).toBe('/client/information?customerId=3');
  expect(profileTarget('/mot/singleClient?tab=1', 3)).toBe('/mot/singleClient?tab=1&customerId=3');
});
