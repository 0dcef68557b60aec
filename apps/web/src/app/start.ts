import '../shared/i18n/i18n';
import { installRemScaling } from '../shared/layout/rem';
import { installTrendColours } from '../shared/format/trend-colours';
import { initTracing } from '../shared/tracing/tracing';
import { applyEntryParams } from '../shared/session/entry-params';
import { installTokenSync } from '../shared/session/token-sync';
import { hasUsableToken, useUser } from '../shared/session/user-store';
import { installDrafts } from '../shared/drafts/install';
import { loadUserSettings } from '../features/staff';
import { installSidebarFlow } from '../features/kyc';
import { installSessionRecovery, setAsideForFreshCode } from '../features/auth';
import { createAppRouter } from './router';
import { preloadPath } from './route-match';
import { installKycListener } from './kyc-listener';

/** Runs once before the first render; firstPage, the first page's chunk imported now (ADR 0037), settles even if that load fails. */
export function start() {
  installRemScaling();
  installTrendColours();
  const firstPage = preloadPath(window.location.pathname).catch(() => undefined);
  void initTracing();
  applyEntryParams(window.location.search);
  // Back from WeCom with a code: that code, not a stored (perhaps stale) token, says who is signing in (ADR 0047).
  setAsideForFreshCode(window.location);
  installTokenSync();
  // The request layer announces an ended session; the auth feature signs in again.
  installSessionRecovery();
  const router = createAppRouter();
  installDrafts(router);
  installKycListener(router);
  // In WeCom: entry from ww.getContext() (the query above stays the fallback) and the chat-sidebar landing page.
  installSidebarFlow(router);
  if (hasUsableToken()) void loadUserSettings();
  // After every sign-in — a WeCom code or a resumed session — the staff member's settings load (docs/spec.md §4).
  useUser.subscribe((user, previous) => {
    if (user.token && user.token !== previous.token) void loadUserSettings();
  });
  return { router, firstPage };
}
