import { isUtf8 } from 'node:buffer';
import { Transform, type TransformCallback } from 'node:stream';

const NEWLINE = 0x0a;

/**
 * Passes a file's bytes through and notes which lines (1-based) are not UTF-8 (GBK, Big5, stray bytes), which a decoder
 * would turn into U+FFFD without a word. Only whole lines pass, so a line is checked before a reader sees it.
 */
export class Utf8LineCheck extends Transform {
  /** Line numbers that are not valid UTF-8, filled in as the bytes pass. */
  readonly badLines = new Set<number>();
  private line = 1;
  /** The start of a line whose end has not arrived yet. */
  private partial: Buffer = Buffer.alloc(0);

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    const lastNewline = chunk.lastIndexOf(NEWLINE);
    if (lastNewline === -1) {
      this.partial = Buffer.concat([this.partial, chunk]);
      callback();
      return;
    }
    const complete =
      this.partial.length > 0 ? Buffer.concat([this.partial, chunk.subarray(0, lastNewline + 1)]) : chunk.subarray(0, lastNewline + 1);
    this.partial = Buffer.from(chunk.subarray(lastNewline + 1));
    this.check(complete);
    callback(null, complete);
  }

  override _flush(callback: TransformCallback) {
    if (this.partial.length === 0) {
      callback();
      return;
    }
    this.check(this.partial);
    callback(null, this.partial);
  }

  /** Whether any line in `[from, to]` is not UTF-8; the first such line, else null. */
  firstBadLine(from: number, to: number): number | null {
    if (this.badLines.size === 0) return null;
    for (let line = from; line <= to; line++) if (this.badLines.has(line)) return line;
    return null;
  }

  private check(lines: Buffer) {
    let start = 0;
    while (start < lines.length) {
      const newline = lines.indexOf(NEWLINE, start);
      const end = newline === -1 ? lines.length : newline + 1;
      if (!isUtf8(lines.subarray(start, end))) this.badLines.add(this.line);
      this.line++;
      start = end;
    }
  }
}
