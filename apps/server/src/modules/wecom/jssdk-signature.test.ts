import { describe, expect, it } from 'vitest';
import { signJsSdk } from './jssdk-signature';

describe('JS-SDK signature', () => {
  it("reproduces WeCom's documented sample", () => {
    expect(
      signJsSdk({
        ticket: 'sM4AOVdWfPE4DxkXGEs8VMCPGGVi4C3VM0P37wVUCFvkVAy_90u5h9nbSlYy3-Sl-HhTdfl2fzFy1AOcHKP7qg',
        nonceStr: 'Wm3WZYTPz0wzccnW',
        timestamp: 1414587457,
        url: 'http://mp.weixin.qq.com?params=value',
      }),
    ).toBe('0f9de62fce790f9a083d5c99e95740ceb90c27ed');
  });

  it('ignores the #fragment of the page URL and changes with any signed field', () => {
    const base = { ticket: 't', nonceStr: 'n', timestamp: 1, url: 'https://a.example/p?q=1' };
    expect(signJsSdk({ ...base, url: `${base.url}#/client` })).toBe(signJsSdk(base));
    expect(signJsSdk({ ...base, nonceStr: 'm' })).not.toBe(signJsSdk(base));
    expect(signJsSdk({ ...base, timestamp: 2 })).not.toBe(signJsSdk(base));
  });
});
