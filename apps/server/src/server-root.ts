import { fileURLToPath } from 'node:url';

/** apps/server, from src/ (TypeScript) or dist/ (the compiled bundle) alike. */
export const SERVER_ROOT = fileURLToPath(new URL('..', import.meta.url));
