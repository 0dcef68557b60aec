import { describe, expect, test } from 'vitest';
import { buildReloginUrl, returnPageOf } from './relogin';

describe('re-login URL', () => {
  const target = {
    origin: 'https://broker.example.com',
    oauthBase: 'https://open.weixin.qq.com',
    corpCode: 'fxhl',
    agentCode: 'khzl',
    agentId: '1000002',
    wxAppId: 'ww7a1f',
    redirectPage: '/client/information?customerId=C001',
    state: 'S1',
  };

  test('is the OAuth authorise page with scope snsapi_privateinfo and a /wxEntry return address', () => {
    const url = new URL(buildReloginUrl(target));
    expect(`${url.origin}${url.pathname}`).toBe('https://open.weixin.qq.com/connect/oauth2/authorize');
    expect(url.hash).toBe('#wechat_redirect');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      appid: 'ww7a1f',
      redirect_uri: expect.any(String),
      response_type: 'code',
      scope: 'snsapi_privateinfo',
      state: 'S1',
      agentid: '1000002',
    });
    const back = new URL(url.searchParams.get('redirect_uri')!);
    expect(`${back.origin}${back.pathname}`).toBe('https://broker.example.com/wxEntry');
    expect(Object.fromEntries(back.searchParams)).toEqual({
      redirectPage: '/client/information?customerId=C001',
      corpCode: 'fxhl',
      agentCode: 'khzl',
      agentId: '1000002',
      wxAppId: 'ww7a1f',
      needBack: '1',
    });
  });

  test('carries relauchType when given', () => {
    const back = new URL(new URL(buildReloginUrl({ ...target, relauchType: 'pushPage' })).searchParams.get('redirect_uri')!);
    expect(back.searchParams.get('relauchType')).toBe('pushPage');
  });

  test('a relative OAuth base (the emulator) is resolved against the app origin', () => {
    expect(buildReloginUrl({ ...target, oauthBase: '/wecom' })).toMatch(
      /^https:\/\/broker\.example\.com\/wecom\/connect\/oauth2\/authorize\?/,
    );
  });
});

describe('return page', () => {
  test('is where the user is', () => {
    expect(returnPageOf({ pathname: '/mot/home', search: '?tab=2' })).toEqual({ redirectPage: '/mot/home?tab=2', relauchType: null });
    expect(returnPageOf({ pathname: '/', search: '' }).redirectPage).toBe('/client/manage/list');
  });
  test('is the query redirectPage when relauchType is reLogin or pushPage', () => {
    expect(returnPageOf({ pathname: '/mot/home', search: '?relauchType=pushPage&redirectPage=%2Fmot%2FeventDetail' })).toEqual({
      redirectPage: '/mot/eventDetail',
      relauchType: 'pushPage',
    });
    expect(returnPageOf({ pathname: '/mot/home', search: '?relauchType=reLogin&redirectPage=%2Fkyc%2Findex' }).redirectPage).toBe(
      '/kyc/index',
    );
    expect(returnPageOf({ pathname: '/mot/home', search: '?relauchType=other&redirectPage=%2Fkyc%2Findex' }).redirectPage).toBe(
      '/mot/home?relauchType=other&redirectPage=%2Fkyc%2Findex',
    );
  });
  test('from /wxEntry is the redirectPage it was going to', () => {
    expect(returnPageOf({ pathname: '/wxEntry', search: '?code=x&redirectPage=%2Fkyc%2Findex' }).redirectPage).toBe('/kyc/index');
  });
});
