/**
 * The cookies one test "browser" holds for one origin: what `Set-Cookie` stored, sent back as
 * `Cookie`. Enough for the app's own HttpOnly cookies (name, value, Max-Age=0 to delete); the
 * server's tests of the attributes read `Set-Cookie` themselves.
 */
export class BrowserJar {
  private readonly cookies = new Map<string, string>();

  /** Takes the `Set-Cookie` lines of an answer (from fetch or from inject). */
  takeSetCookie(lines: readonly string[]): this {
    for (const line of lines) {
      const [pair = '', ...attributes] = line.split(';');
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      const cleared = value === '' || attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute));
      if (cleared) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return this;
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  set(name: string, value: string): this {
    this.cookies.set(name, value);
    return this;
  }

  /** WeCom's account switch, or a user clearing site data: every cookie gone. */
  clear(): this {
    this.cookies.clear();
    return this;
  }

  /** The `Cookie` header value, or null when the jar is empty. */
  header(): string | null {
    if (this.cookies.size === 0) return null;
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** `{ cookie }` to spread into request headers (nothing when empty). */
  headers(): Record<string, string> {
    const header = this.header();
    return header === null ? {} : { cookie: header };
  }
}
