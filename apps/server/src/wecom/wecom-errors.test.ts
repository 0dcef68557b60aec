import { describe, expect, it } from 'vitest';
import { ErrorCode, httpStatusOf } from '@broker/contract';
import { errmsgDetails, WecomApiError, WecomFailure, wecomFailure, wecomProblemOf } from './wecom-errors';

const api = (errcode: number, path = '/cgi-bin/auth/getuserinfo', errmsg = 'x') => new WecomApiError(errcode, errmsg, path);

/** Issue 19.3: every errcode we can meet has a name and its own envelope code. */
describe('WeCom errcodes are named', () => {
  const families: [string, number[], string][] = [
    ['trusted IP', [60020], ErrorCode.WECOM_IP_NOT_TRUSTED],
    ['API permission', [48002], ErrorCode.WECOM_API_FORBIDDEN],
    ['frequency', [45009], ErrorCode.WECOM_RATE_LIMITED],
    ['trusted domain', [50001], ErrorCode.WECOM_REDIRECT_UNTRUSTED],
    ['system busy', [-1], ErrorCode.WECOM_BUSY],
    ['code wrong or used', [40029, 40163], ErrorCode.LOGIN_CODE_INVALID],
    ['code missing', [41008], ErrorCode.WECOM_CODE_MISSING],
    ['not an external contact', [84061], ErrorCode.WECOM_NOT_EXTERNAL_CONTACT],
    ['invalid external userid', [40096], ErrorCode.WECOM_EXTERNAL_USERID_INVALID],
    ['token expiry family', [40001, 40014, 42001, 41001], ErrorCode.WECOM_TOKEN_REJECTED],
    ['visible range', [60011], ErrorCode.WECOM_NOT_VISIBLE],
    ['agent id and secret of different apps', [40056, 301002], ErrorCode.WECOM_AGENT_MISMATCH],
  ];

  it.each(families)('%s (%j) → %s', (_what, errcodes, code) => {
    for (const errcode of errcodes) expect(wecomProblemOf(api(errcode)).code, String(errcode)).toBe(code);
  });

  it('each family has its own code, so the client and the log can tell them apart', () => {
    const codes = families.map(([, , code]) => code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes).not.toContain(ErrorCode.UPSTREAM_WECOM);
  });

  it('at gettoken, 40001 is a wrong secret (CORPS_FILE), not a stale token', () => {
    expect(wecomProblemOf(api(40001, '/cgi-bin/gettoken')).code).toBe(ErrorCode.WECOM_CREDENTIALS_INVALID);
    expect(wecomProblemOf(api(40013, '/cgi-bin/gettoken')).code).toBe(ErrorCode.WECOM_CREDENTIALS_INVALID);
  });

  it('no answer at all, and errcodes nobody named, stay "WeCom unavailable"', () => {
    expect(wecomProblemOf(new WecomApiError(-1, 'connect ECONNREFUSED', '/cgi-bin/gettoken', true)).name).toBe('unreachable');
    expect(wecomProblemOf(api(99999)).code).toBe(ErrorCode.UPSTREAM_WECOM);
  });

  it('keeps WeCom’s hint and the address it saw for the log, never in the client’s message', () => {
    const errmsg =
      'not allow to access from your ip, hint: [1718604248261812775683588], from ip: 203.0.113.9, more info at https://open.work.weixin.qq.com/devtool/query?e=60020';
    expect(errmsgDetails(errmsg)).toEqual({ hint: '1718604248261812775683588', fromIp: '203.0.113.9' });
    const failure = wecomFailure(api(60020, '/cgi-bin/get_jsapi_ticket', errmsg));
    expect(failure).toBeInstanceOf(WecomFailure);
    expect(failure.statusCode).toBe(httpStatusOf[ErrorCode.WECOM_IP_NOT_TRUSTED]);
    expect(failure.message).not.toMatch(/203\.0\.113\.9|hint|1718604248|from ip|access_token/);
    expect((failure as WecomFailure).wecom).toMatchObject({
      errcode: 60020,
      errmsg,
      path: '/cgi-bin/get_jsapi_ticket',
      problem: 'ip-not-trusted',
      hint: '1718604248261812775683588',
      fromIp: '203.0.113.9',
    });
    expect((failure as WecomFailure).wecom.adminFix).toContain('企业可信IP');
  });
});
