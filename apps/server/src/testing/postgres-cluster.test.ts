import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeClusterDir, recordClusterProcess, removeClusterDir, sweepStaleClusterDirs } from './postgres-cluster';

/*
 * What a killed run of the replication process test leaves behind is removed by the next run, and
 * nothing of a run still going (in another worktree, say) is touched. The postmasters' part (by
 * postmaster.pid) runs in the process test itself.
 */
describe('sweeping the cluster directories of killed runs', () => {
  const prefix = `broker-sweep-test-${process.pid}-`;
  const children: ChildProcess[] = [];
  const sleeper = () => {
    const child = spawn('sleep', ['60'], { stdio: 'ignore' });
    children.push(child);
    return child;
  };
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await sweepStaleClusterDirs(prefix);
  });

  it('removes a dead owner’s directory with the processes it recorded, and leaves a live owner’s alone', async () => {
    const ours = makeClusterDir(prefix);
    const ourChild = sleeper();
    recordClusterProcess(ours, ourChild.pid);

    // A run killed with SIGKILL: its owner (here a process that has exited) recorded a child that still runs.
    const owner = sleeper();
    const orphan = sleeper();
    const killed = makeClusterDir(prefix);
    writeFileSync(join(killed, 'owner'), '');
    recordClusterProcess(killed, owner.pid);
    recordClusterProcess(killed, orphan.pid);
    owner.kill('SIGKILL');
    await once(owner, 'exit');
    const orphanGone = once(orphan, 'exit');

    expect(await sweepStaleClusterDirs(prefix)).toEqual([killed]);
    await orphanGone;
    expect(existsSync(killed)).toBe(false);
    expect(existsSync(ours)).toBe(true);
    expect(ourChild.exitCode === null && ourChild.signalCode === null).toBe(true);
    removeClusterDir(ours);
  });

  it('leaves a directory without an owner file alone unless it is older than any run', async () => {
    const young = mkdtempSync(join(tmpdir(), prefix));
    const old = mkdtempSync(join(tmpdir(), prefix));
    const anHourAgo = new Date(Date.now() - 3600_000);
    utimesSync(old, anHourAgo, anHourAgo);
    expect(await sweepStaleClusterDirs(prefix)).toEqual([old]);
    expect(existsSync(young)).toBe(true);
    removeClusterDir(young);
  });
});
