import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { once } from 'node:events';
import http from 'node:http';
import { signInAs } from './testing';

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));

/** Every server this file started; one a failed assertion left running is killed, not leaked. */
const started: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

function startServer(env: Record<string, string>) {
  const child = spawn(TSX, [MAIN], {
    env: { PATH: process.env.PATH, PGLITE_DIR: 'memory://', LOG_LEVEL: 'info', SEED_DEMO: 'false', WEB_DIST_DIR: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // Start-up compiles main.ts and migrates an in-memory PGlite: on a loaded 2-core CI machine that
  // has taken more than 30 s.
  const waitFor = async (pattern: RegExp, timeoutMs = 90_000) => {
    const started = Date.now();
    while (!pattern.test(output)) {
      if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${pattern}; output:\n${output}`);
      if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}) before ${pattern}; output:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  return { child, waitFor, output: () => output };
}

describe('server process', () => {
  it('refuses to start on a bad setting and names the variable', async () => {
    const server = startServer({ PORT: 'eighty' });
    const [code] = (await once(server.child, 'exit')) as [number];
    expect(code).toBe(1);
    expect(server.output()).toMatch(/Invalid configuration:\s+- PORT="eighty": must be a number/);
  });

  it('will not run the WeCom emulator by default on a public interface, and says which variable to set', async () => {
    const server = startServer({ HOST: '0.0.0.0', PORT: '0' });
    const [code] = (await once(server.child, 'exit')) as [number];
    expect(code).toBe(1);
    expect(server.output()).toMatch(
      /Invalid configuration:\s+- WECOM_MODE="": must be set explicitly \(real or emulator\) because HOST=0\.0\.0\.0/,
    );
    expect(server.output()).not.toMatch(/is up on/);
  });

  it('listens on PORT and HOST, and drains in-flight requests on SIGTERM', { timeout: 180_000 }, async () => {
    const port = String(20_000 + Math.floor(Math.random() * 20_000));
    const server = startServer({ PORT: port, HOST: '127.0.0.1' });
    await server.waitFor(/Broker Assistant is up on http:\/\/127\.0\.0\.1:\d+/);
    expect(server.output()).toContain(`127.0.0.1:${port}`);
    // Started as an operator would, without HEALTH_DETAIL_TOKEN: readiness alone, nothing of the deployment (ADR 0054).
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(await ready.json()).toEqual({ status: 'ready' });
    // The start-up probe checked each app of the emulated corp and said so, one line each.
    await server.waitFor(/WeCom probe fxhl\/mot \(agent 1000004\): ok/);
    expect(server.output()).toMatch(/WeCom probe fxhl\/khzl \(agent 1000002\): ok — trusted domain 127\.0\.0\.1:\d+/);

    const { headers } = await signInAs(`http://127.0.0.1:${port}`);

    // A request whose body is still arriving when SIGTERM lands must still be answered (by hand, not the
    // typed client: it sends half the body, waits, and sends the rest).
    // (isFold touches only the database; a WeCom call would need the emulator this server also hosts.)
    const body = JSON.stringify({});
    const request = http.request({
      host: '127.0.0.1',
      port: Number(port),
      method: 'POST',
      path: '/api/mot/todoEventRule/isFold',
      headers: { ...headers, 'agent-code': 'mot', 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    const answered = new Promise<string>((resolve, reject) => {
      request.on('response', (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve(text));
      });
      request.on('error', reject);
    });
    request.write(body.slice(0, 1));
    await new Promise((resolve) => setTimeout(resolve, 300));
    server.child.kill('SIGTERM');
    await server.waitFor(/shutting down/);
    request.end(body.slice(1));
    expect(JSON.parse(await answered)).toEqual({ code: '0', msg: 'ok', data: false });
    const [code] = (await once(server.child, 'exit')) as [number];
    expect(code).toBe(0);
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  });
});
