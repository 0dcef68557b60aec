/** WeCom errcodes the emulator answers with, as documented by WeCom. */
export const WecomErr = {
  OK: { errcode: 0, errmsg: 'ok' },
  INVALID_CREDENTIAL: { errcode: 40001, errmsg: 'invalid credential' },
  INVALID_CORPID: { errcode: 40013, errmsg: 'invalid corpid' },
  INVALID_ACCESS_TOKEN: { errcode: 40014, errmsg: 'invalid access_token' },
  INVALID_CODE: { errcode: 40029, errmsg: 'invalid code' },
  ACCESS_TOKEN_EXPIRED: { errcode: 42001, errmsg: 'access_token expired' },
  MISSING_ACCESS_TOKEN: { errcode: 41001, errmsg: 'access_token missing' },
  MISSING_CORPID: { errcode: 41002, errmsg: 'corpid missing' },
  MISSING_SECRET: { errcode: 41004, errmsg: 'corpsecret missing' },
  MISSING_CODE: { errcode: 41008, errmsg: 'missing code' },
  INVALID_USER_TICKET: { errcode: 40130, errmsg: 'invalid user_ticket' },
  INVALID_TICKET_TYPE: { errcode: 40073, errmsg: 'invalid type' },
  INVALID_EXTERNAL_USERID: { errcode: 84061, errmsg: 'not external contact' },
  INVALID_REDIRECT: { errcode: 50001, errmsg: 'redirect_url unauthorized' },
  INVALID_AGENTID: { errcode: 40056, errmsg: 'invalid agentid' },
} as const;
