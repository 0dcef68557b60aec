// Runs the given shell commands at the same time (each is single-threaded: tsc, eslint, prettier, a build) and
// prints each one's output whole once it ends, with its time; exits 1 if any failed. `npm test` checks with it
// (ADR 0057): one after another, the checks left a core idle for six minutes.
import { spawn } from 'node:child_process';

const commands = process.argv.slice(2);
const results = await Promise.all(
  commands.map(
    (command) =>
      new Promise((resolve) => {
        const started = performance.now();
        const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
        const output = [];
        child.stdout.on('data', (chunk) => output.push(chunk));
        child.stderr.on('data', (chunk) => output.push(chunk));
        child.on('close', (code, signal) => {
          const seconds = ((performance.now() - started) / 1000).toFixed(0);
          const failed = code !== 0;
          process.stdout.write(`--- ${command}: ${failed ? `FAILED (${signal ?? code})` : 'ok'} in ${seconds} s\n`);
          process.stdout.write(Buffer.concat(output));
          resolve(!failed);
        });
      }),
  ),
);
process.exit(results.every(Boolean) ? 0 : 1);
