/**
 * A book index's texts (ADR 0035) packed as UTF-8 in one buffer and its postings in a few typed arrays, so a
 * full collection has little to mark. Compared as bytes: for valid UTF-8 a run of bytes matches where the
 * characters do.
 */

export const NAME_CN = 0;
/** The name folded to Simplified (ADR 0046). */
export const FOLDED = 1;
export const NAME_EN = 2;
export const PHONE_DIGITS = 3;
export const CUSTOMER_NO = 4;
export const ID_DOC_LAST4 = 5;
/** In account-id order, NUL apart (PostgreSQL text holds no NUL). */
export const ACCOUNT_NOS = 6;
export const PHONE = 7;
export const ID_DOC_MASKED = 8;
export const TAGS = 9;
const FIELDS = 10;

/** A field's length marks: null, and (FOLDED) "the same as the Chinese name". */
const NULL = 0xffff;
const SAME_AS_NAME = 0xfffe;
export const MAX_FIELD_BYTES = 0xfffd;

export const utf8 = (text: string): Buffer => Buffer.from(text, 'utf8');

/**
 * Lower case as ILIKE folds it (PostgreSQL's lower() in a UTF-8 ctype). toLowerCase differs only for İ
 * (i + U+0307) and a word-final Σ (ς); PostgreSQL gives i and σ.
 */
export const lowerAsSql = (text: string) => text.replace(/[\u0130\u03a3]/g, (char) => (char === '\u0130' ? 'i' : '\u03c3')).toLowerCase();

export function grown<T extends Buffer | Float64Array | Int32Array | Uint8Array | Uint16Array | Uint32Array>(array: T, size: number): T {
  if (size <= array.length) return array;
  const length = Math.max(size, array.length * 2, 64);
  const next = (
    Buffer.isBuffer(array) ? Buffer.allocUnsafeSlow(length) : new (array.constructor as new (length: number) => T)(length)
  ) as T;
  next.set(array);
  return next;
}

/** Each slot's record: its fields' bytes one after another, found by the record's start and the fields' lengths. */
export class BookTexts {
  private bytes = Buffer.allocUnsafeSlow(1 << 16);
  /** A record written again is appended (the book is read again after a few thousand). */
  private used = 0;
  private starts = new Int32Array(0);
  private lengths = new Uint16Array(0);
  /** 1 when the English name is all ASCII (then its case is folded byte by byte). */
  private asciiEn = new Uint8Array(0);

  write(slot: number, values: readonly (string | null)[]): boolean {
    const sizes = values.map((value, field) =>
      value === null ? NULL : field === FOLDED && value === values[NAME_CN] ? SAME_AS_NAME : Buffer.byteLength(value, 'utf8'),
    );
    if (sizes.some((size) => size > MAX_FIELD_BYTES && size < SAME_AS_NAME)) return false;
    const total = sizes.reduce((sum, size) => sum + (size < SAME_AS_NAME ? size : 0), 0);
    this.starts = grown(this.starts, slot + 1);
    this.lengths = grown(this.lengths, (slot + 1) * FIELDS);
    this.asciiEn = grown(this.asciiEn, slot + 1);
    this.bytes = grown(this.bytes, this.used + total);
    this.starts[slot] = this.used;
    for (let field = 0; field < FIELDS; field += 1) {
      const value = values[field];
      this.lengths[slot * FIELDS + field] = sizes[field]!;
      if (sizes[field]! < SAME_AS_NAME) this.used += this.bytes.write(value!, this.used, 'utf8');
    }
    this.asciiEn[slot] = sizes[NAME_EN] === values[NAME_EN]!.length ? 1 : 0;
    return true;
  }

  private begin(slot: number, field: number): number {
    let at = this.starts[slot]!;
    const base = slot * FIELDS;
    for (let before = 0; before < field; before += 1) {
      const size = this.lengths[base + before]!;
      if (size < SAME_AS_NAME) at += size;
    }
    return at;
  }

  /** A field's length in bytes, `-1` for null. */
  size(slot: number, field: number): number {
    const size = this.lengths[slot * FIELDS + field]!;
    if (size === NULL) return -1;
    return size === SAME_AS_NAME ? this.lengths[slot * FIELDS + NAME_CN]! : size;
  }

  private at(slot: number, field: number): number {
    return field === FOLDED && this.lengths[slot * FIELDS + FOLDED] === SAME_AS_NAME ? this.starts[slot]! : this.begin(slot, field);
  }

  text(slot: number, field: number): string | null {
    const size = this.size(slot, field);
    if (size < 0) return null;
    const at = this.at(slot, field);
    return this.bytes.toString('utf8', at, at + size);
  }

  list(slot: number, field: number): string[] {
    const text = this.text(slot, field);
    return text === null ? [] : text.split('\0');
  }

  /** SQL's `like '%…%'`; null holds nothing. */
  holds(slot: number, field: number, needle: Uint8Array): boolean {
    const size = this.size(slot, field);
    return size >= 0 && indexIn(this.bytes, this.at(slot, field), size, needle, false) >= 0;
  }

  startsWith(slot: number, field: number, needle: Uint8Array): boolean {
    const size = this.size(slot, field);
    return size >= needle.length && matchesAt(this.bytes, this.at(slot, field), needle, false);
  }

  endsWith(slot: number, field: number, needle: Uint8Array): boolean {
    const size = this.size(slot, field);
    return size >= needle.length && matchesAt(this.bytes, this.at(slot, field) + size - needle.length, needle, false);
  }

  equals(slot: number, field: number, needle: Uint8Array): boolean {
    return this.size(slot, field) === needle.length && this.startsWith(slot, field, needle);
  }

  holdsEntry(slot: number, field: number, needle: Uint8Array): boolean {
    const size = this.size(slot, field);
    if (size < needle.length) return false;
    const from = this.at(slot, field);
    const end = from + size;
    for (let entry = from; entry <= end;) {
      let next = entry;
      while (next < end && this.bytes[next] !== 0) next += 1;
      if (next - entry === needle.length && matchesAt(this.bytes, entry, needle, false)) return true;
      entry = next + 1;
    }
    return false;
  }

  /** The English name, lowered as ILIKE folds it, holds `needle`; `wordStart`: only at a word's start. */
  nameEnHolds(slot: number, needle: Uint8Array, needleText: string, wordStart: boolean): boolean {
    if (this.asciiEn[slot] !== 1) {
      const name = lowerAsSql(this.text(slot, NAME_EN)!);
      return wordStart ? name.startsWith(needleText) || name.includes(` ${needleText}`) : name.includes(needleText);
    }
    const size = this.size(slot, NAME_EN);
    const from = this.at(slot, NAME_EN);
    if (!wordStart) return indexIn(this.bytes, from, size, needle, true) >= 0;
    for (let at = from; at + needle.length <= from + size; at += 1) {
      if ((at === from || this.bytes[at - 1] === 0x20) && matchesAt(this.bytes, at, needle, true)) return true;
    }
    return false;
  }
}

/** `fold`: A–Z in the haystack compared as a–z. */
function matchesAt(bytes: Buffer, at: number, needle: Uint8Array, fold: boolean): boolean {
  for (let index = 0; index < needle.length; index += 1) {
    let byte = bytes[at + index]!;
    if (fold && byte >= 0x41 && byte <= 0x5a) byte += 0x20;
    if (byte !== needle[index]) return false;
  }
  return true;
}

function indexIn(bytes: Buffer, from: number, size: number, needle: Uint8Array, fold: boolean): number {
  const first = needle[0]!;
  for (let at = from, last = from + size - needle.length; at <= last; at += 1) {
    let byte = bytes[at]!;
    if (fold && byte >= 0x41 && byte <= 0x5a) byte += 0x20;
    if (byte === first && matchesAt(bytes, at, needle, fold)) return at;
  }
  return -1;
}

/** Slots per key: the keys' bytes sorted in one buffer, each key's slots a stretch of one Int32Array. */
export class Postings {
  private readonly keys: Buffer;
  private readonly keyStarts: Int32Array;
  private readonly slotStarts: Int32Array;
  private readonly slots: Int32Array;

  /** `entries`: per field (a key's first character), each key's slots in ascending order. */
  constructor(entries: Map<string, Map<string, number[]>>) {
    const sorted = [...entries]
      .flatMap(([field, keys]) => [...keys].map(([key, slots]) => [utf8(field + key), slots] as const))
      .sort((a, b) => Buffer.compare(a[0], b[0]));
    this.keyStarts = new Int32Array(sorted.length + 1);
    this.slotStarts = new Int32Array(sorted.length + 1);
    let keyBytes = 0;
    let slotCount = 0;
    sorted.forEach(([key, slots], index) => {
      this.keyStarts[index] = keyBytes;
      this.slotStarts[index] = slotCount;
      keyBytes += key.length;
      slotCount += slots.length;
    });
    this.keyStarts[sorted.length] = keyBytes;
    this.slotStarts[sorted.length] = slotCount;
    this.keys = Buffer.allocUnsafeSlow(keyBytes);
    this.slots = new Int32Array(slotCount);
    sorted.forEach(([key, slots], index) => {
      key.copy(this.keys, this.keyStarts[index]);
      this.slots.set(slots, this.slotStarts[index]);
    });
  }

  private lowerBound(key: Uint8Array): number {
    const { keys, keyStarts } = this;
    let low = 0;
    let high = keyStarts.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const start = keyStarts[middle]!;
      const size = keyStarts[middle + 1]! - start;
      let before = size < key.length;
      for (let at = 0; at < Math.min(size, key.length); at += 1) {
        if (keys[start + at] !== key[at]) {
          before = keys[start + at]! < key[at]!;
          break;
        }
      }
      if (before) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  of(key: Uint8Array): Int32Array {
    const at = this.lowerBound(key);
    if (at === this.keyStarts.length - 1 || !this.keyIs(at, key, true)) return EMPTY;
    return this.slots.subarray(this.slotStarts[at], this.slotStarts[at + 1]);
  }

  beginningWith(prefix: Uint8Array): Int32Array[] {
    const found: Int32Array[] = [];
    for (let at = this.lowerBound(prefix); at < this.keyStarts.length - 1 && this.keyIs(at, prefix, false); at += 1)
      found.push(this.slots.subarray(this.slotStarts[at], this.slotStarts[at + 1]));
    return found;
  }

  private keyIs(at: number, key: Uint8Array, whole: boolean): boolean {
    const start = this.keyStarts[at]!;
    const size = this.keyStarts[at + 1]! - start;
    return (whole ? size === key.length : size >= key.length) && matchesAt(this.keys, start, key, false);
  }
}

const EMPTY = new Int32Array(0);
