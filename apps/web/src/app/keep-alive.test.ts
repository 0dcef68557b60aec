import { describe, expect, test } from 'vitest';
import { nextAlivePages, type AlivePage } from './keep-alive';
import { staysAlive, type RouteName } from './route-table';
import { kycTarget } from '../features/kyc';

const walk = (...names: RouteName[]) =>
  names
    .slice(1)
    .reduce<AlivePage[]>((pages, name) => nextAlivePages(pages, { name, element: null }), [{ name: names[0]!, element: null }])
    .map((page) => page.name);

describe('keep-alive sets of SPEC.md §2', () => {
  test('the client list stays alive wherever the user goes', () => {
    expect(staysAlive('clientManageList', 'kycIndex')).toBe(true);
    expect(walk('clientManageList', 'clientManageSearch', 'clientInformation', 'clientHoldingStock')).toContain('clientManageList');
  });
  test('pairs named by SPEC stay alive, others do not', () => {
    expect(staysAlive('clientManageSearch', 'clientInformation')).toBe(true);
    expect(staysAlive('clientManageSearch', 'kycIndex')).toBe(false);
    expect(staysAlive('clientInformation', 'clientTransferStock')).toBe(true);
    expect(staysAlive('clientInformation', 'clientEdit')).toBe(false);
    expect(staysAlive('motHome', 'motEventDetail')).toBe(true);
    expect(staysAlive('motHome', 'motSingleClient')).toBe(false);
    expect(staysAlive('motEventDetail', 'clientMoneyRecord')).toBe(true);
    expect(staysAlive('motEventDetail', 'clientHoldingStock')).toBe(false);
    expect(staysAlive('clientHoldingStock', 'clientInformation')).toBe(false);
  });
  test('a kept page is dropped once the user moves outside its set', () => {
    expect(walk('motHome', 'motEventDetail', 'clientInformation')).toEqual(['motHome', 'motEventDetail', 'clientInformation']);
    expect(walk('motHome', 'motEventDetail', 'clientInformation', 'motEventDetail')).toEqual(['motHome', 'motEventDetail']);
    expect(walk('motHome', 'motEventDetail', 'clientInformation', 'motEventDetail', 'motHome')).toEqual(['motHome']);
    expect(walk('motHome', 'motSingleClient', 'motHome')).toEqual(['motHome']);
    expect(walk('motHome', 'kycIndex')).toEqual(['kycIndex']);
    expect(walk('clientManageSearch', 'clientInformation', 'clientHoldingStock')).toEqual(['clientInformation', 'clientHoldingStock']);
  });
});

describe('kyc storage listener target', () => {
  test('unbind goes to /kyc/index with redirectPage', () => {
    expect(kycTarget('unbind', '?redirectPage=%2Fmot%2FsingleClient', 'C1')).toBe('/kyc/index?redirectPage=%2Fmot%2FsingleClient');
  });
  test('otherwise goes to redirectPage with the bound customerId', () => {
    expect(kycTarget('bind', '?redirectPage=%2Fmot%2FsingleClient', 'C1')).toBe('/mot/singleClient?customerId=C1');
    expect(kycTarget('bind', '', 'C2')).toBe('/client/information?customerId=C2');
  });
});
