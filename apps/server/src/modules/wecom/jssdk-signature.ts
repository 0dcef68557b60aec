import { createHash, randomBytes } from 'node:crypto';

/** SHA-1 of `jsapi_ticket=T&noncestr=N&timestamp=TS&url=URL`, values not encoded, url without its `#fragment`. */
export function signJsSdk(input: { ticket: string; nonceStr: string; timestamp: number; url: string }): string {
  const url = input.url.split('#')[0];
  const plain = `jsapi_ticket=${input.ticket}&noncestr=${input.nonceStr}&timestamp=${input.timestamp}&url=${url}`;
  return createHash('sha1').update(plain).digest('hex');
}

export const newNonce = () => randomBytes(12).toString('base64url').replace(/[-_]/g, 'x').slice(0, 16);
