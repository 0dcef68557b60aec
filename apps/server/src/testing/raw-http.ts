import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface RawExchange {
  /** Everything the server sent, as latin1 (bytes one to one). */
  text: string;
  status: number | null;
  headers: Record<string, string>;
  /** The body after the blank line, parsed as JSON when it is. */
  body: unknown;
  /** Milliseconds from connecting until the server closed the connection; null when it was still open. */
  closedAfterMs: number | null;
}

/** A step of what the client sends: bytes, or a pause. */
export type RawStep = string | Buffer | { pauseMs: number };

/**
 * Plays `steps` on a raw TCP connection (what `fetch` cannot do: stop halfway, trickle, send bytes
 * that are not HTTP) and reports what came back and when the server closed the connection. Gives
 * up `waitMs` after the last step; stops sending once the server has closed.
 */
export async function rawHttp(baseUrl: string, steps: RawStep[], waitMs = 3000): Promise<RawExchange> {
  const { hostname, port } = new URL(baseUrl);
  const socket = net.connect(Number(port), hostname);
  const started = Date.now();
  const chunks: Buffer[] = [];
  let closedAfterMs: number | null = null;
  const closed = new Promise<void>((resolve) => {
    socket.on('close', () => {
      closedAfterMs = Date.now() - started;
      resolve();
    });
  });
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  // A reset after the server's answer is still an answer; what was read is what counts.
  socket.on('error', () => {});
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  for (const step of steps) {
    if (closedAfterMs !== null) break;
    if (typeof step === 'object' && 'pauseMs' in step) await Promise.race([sleep(step.pauseMs), closed]);
    else socket.write(step);
  }
  await Promise.race([closed, sleep(waitMs)]);
  socket.destroy();
  const text = Buffer.concat(chunks).toString('latin1');
  const [head = '', ...rest] = text.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const status = /^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1];
  const headers = Object.fromEntries(
    headerLines.map((line) => [line.slice(0, line.indexOf(':')).trim().toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  const rawBody = Buffer.from(rest.join('\r\n\r\n'), 'latin1').toString('utf8');
  let body: unknown = rawBody;
  try {
    body = JSON.parse(rawBody);
  } catch {
    // Not JSON: the test says what it expected.
  }
  return { text, status: status ? Number(status) : null, headers, body, closedAfterMs };
}

/** The head of a request, CRLF-terminated, ready for a body. */
export function requestHead(method: string, path: string, headers: Record<string, string | number>): string {
  return `${method} ${path} HTTP/1.1\r\n${Object.entries({ host: 'localhost', ...headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;
}
