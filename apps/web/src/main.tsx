import 'antd-mobile/es/global';
import './app/global.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { start } from './app/start';
import { i18nReady } from './shared/i18n/i18n';
import { FIRST_PAGE_WAIT_MS } from './app/first-page-wait';

const { router, firstPage } = start();
const firstPageOrTimeout = Promise.race([firstPage, new Promise<void>((resolve) => setTimeout(resolve, FIRST_PAGE_WAIT_MS))]);
// Once the strings of the user's language are in (at once for the default language), and the first page's chunk.
void Promise.all([i18nReady, firstPageOrTimeout]).then(() =>
  // A transition: React renders the first screen in slices that yield to the browser instead of one long task.
  startTransition(() => {
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <App router={router} />
      </StrictMode>,
    );
  }),
);
