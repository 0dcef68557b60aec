import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { contractWire } from './vite-plugins/contract-wire';
import { precompress } from './vite-plugins/precompress';
import { preloadHome } from './vite-plugins/preload-home';
import { HTML_PRELOADS } from './src/build/first-screen-chunks';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  plugins: [react(), contractWire(), preloadHome(HTML_PRELOADS), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // dist/.vite/manifest.json: the first-screen budget test (src/first-screen-budget.test.ts) walks it.
    manifest: true,
    // WeCom's webview is current Chromium, which supports <link rel="modulepreload"> natively.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'vendor',
              test: /node_modules[\\/](@tanstack[\\/](query-core|react-query)|react|react-dom|scheduler|react-router|zustand|use-sync-external-store)[\\/]/,
            },
            {
              // The app's own start-up modules that every page shares: one chunk rather than several small ones.
              name: 'app-core',
              test: /(packages[\\/]contract[\\/]src[\\/]app-routes\.ts|src[\\/]shared[\\/](api[\\/](request|contract|api-error|session-events|query-client|toast)|drafts[\\/]draft-owner)\.ts|broker-contract-wire)$/,
            },
            {
              name: 'home-icons',
              test: /antd-mobile-icons[\\/]es[\\/](SearchOutline|FilterOutline|BellOutline|UserContactOutline|CloseOutline|CloseCircleFill|RightOutline)\.js$/,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:3000', '/wecom': 'http://127.0.0.1:3000' },
  },
});
