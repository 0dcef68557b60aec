import type { DatabaseHandle } from '../db/client';
import { apiClient, type ApiClient } from './api-client';
import { signInAs, startTestApp, type RunningTestApp } from './test-app';

/**
 * Two replicas of the app on one database, as in production, and a session of `userid` on each.
 * One WeCom for both: with an emulator each, a token one replica cached in the shared table is
 * unknown to the other's emulator, and the two would keep invalidating each other's.
 */
export async function startTwoReplicas(
  database: DatabaseHandle,
  userid: string,
  options: { agentCode?: string } = {},
): Promise<{ replicas: RunningTestApp[]; sessions: ApiClient[] }> {
  const primary = await startTestApp(database);
  const replicas = [primary];
  try {
    const wecomBaseUrl = `${primary.baseUrl}/wecom`;
    const secondary = await startTestApp(database, { WECOM_API_BASE: wecomBaseUrl });
    replicas.push(secondary);
    const sessions = [
      apiClient(primary.baseUrl, await signInAs(primary.baseUrl, userid, options)),
      apiClient(secondary.baseUrl, await signInAs(secondary.baseUrl, userid, { ...options, wecomBaseUrl })),
    ];
    return { replicas, sessions };
  } catch (error) {
    for (const replica of replicas) await replica.close();
    throw error;
  }
}
