import { fileURLToPath } from 'node:url';

/**
 * apps/server, found from this module: one level up from src/ when run from the TypeScript sources and
 * from dist/ when run from the compiled bundle (apps/server/dist/start.js), so migrations and the web
 * build are found the same way in both.
 */
export const SERVER_ROOT = fileURLToPath(new URL('..', import.meta.url));
