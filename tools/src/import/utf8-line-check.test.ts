import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Utf8LineCheck } from './utf8-line-check';

/** Feeds `bytes` in chunks of `size`, so multi-byte characters and lines are cut across chunks. */
async function check(bytes: Buffer, size: number) {
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  const checker = new Utf8LineCheck();
  const out: Buffer[] = [];
  for await (const chunk of Readable.from(chunks).pipe(checker)) out.push(chunk as Buffer);
  return { badLines: [...checker.badLines], out: Buffer.concat(out) };
}

describe('UTF-8 line check', () => {
  const gbk = Buffer.from('c1d6c3c0c1e1', 'hex'); // 林美玲 in GBK
  const file = Buffer.concat([
    Buffer.from('\ufeffname,city\r\n陈大文,香港\r\n'),
    Buffer.from('LAM,'),
    gbk,
    Buffer.from('\r\n\r\nok,九龍\nstray,'),
    Buffer.from([0xff]), // a stray byte on the last line, which has no newline
  ]);

  it.each([1, 2, 3, 7, 1024])('finds the lines that are not UTF-8 and passes every byte through (chunks of %i)', async (size) => {
    const { badLines, out } = await check(file, size);
    expect(badLines).toEqual([3, 6]);
    expect(out.equals(file)).toBe(true);
  });

  it('accepts a UTF-8 file with a BOM and no final newline', async () => {
    expect((await check(Buffer.from('\ufeffa,b\n陈,1'), 2)).badLines).toEqual([]);
  });
});
