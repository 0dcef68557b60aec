import 'antd-mobile/es/global';
import './app/global.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { start } from './app/start';
import { i18nReady } from './shared/i18n/i18n';

const router = start();
// Once the strings of the user's language are in (at once for the default language).
void i18nReady.then(() =>
  // A transition: React renders the first screen in slices that yield to the browser instead of one long task.
  startTransition(() => {
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <App router={router} />
      </StrictMode>,
    );
  }),
);
