import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** shared → features → app: lower layers never import upper ones; the testing folder serves tests only. */
const WEB_LAYERS = [
  { from: 'app', allow: ['app', 'feature', 'shared'] },
  { from: 'feature', allow: ['shared', 'feature'] },
  { from: 'shared', allow: ['shared'] },
  { from: 'testing', allow: ['shared', 'feature', 'app', 'testing'] },
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'apps/server/drizzle/**', 'docs/**', '.vitest-results/**', 'data/**', '.cache/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // Deep relative climbs hide which package a file really depends on.
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['../../../*'], message: 'Too deep: import through a package or a shorter path.' }] },
      ],
    },
  },
  // Type-aware rules over every TypeScript file of the three projects (ADR 0060): a promise nobody awaits,
  // one handed where a void callback is expected, a thrown non-Error, an object printed as [object Object].
  ...tseslint.configs.recommendedTypeCheckedOnly.map((config) => ({
    ...config,
    files: ['**/*.{ts,tsx,mts,cts}'],
    ignores: ['apps/server/scripts/**'],
  })),
  {
    files: ['**/*.{ts,tsx,mts,cts}'],
    ignores: ['apps/server/scripts/**'],
    languageOptions: {
      parserOptions: {
        project: ['./tsconfig.node.json', './apps/web/tsconfig.json', './e2e/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // Found no defect here, only churn: `any` from JSON in tests, async handlers Fastify awaits anyway,
      // store methods written as closures (ADR 0060).
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    files: ['apps/server/src/**/*.ts'],
    plugins: { boundaries },
    settings: {
      'boundaries/include': ['apps/server/src/**/*'],
      'boundaries/elements': [
        { type: 'main', pattern: 'apps/server/src/{app,main,index}.ts', mode: 'full' },
        { type: 'config', pattern: 'apps/server/src/{env,corps,mot-rank-config,wecom-mode-guard,server-root}.ts', mode: 'full' },
        { type: 'module', pattern: 'apps/server/src/modules/*', capture: ['module'] },
        { type: 'plugins', pattern: 'apps/server/src/plugins' },
        { type: 'wecom', pattern: 'apps/server/src/wecom' },
        { type: 'http', pattern: 'apps/server/src/http' },
        { type: 'db', pattern: 'apps/server/src/db' },
        { type: 'testing', pattern: 'apps/server/src/{testing,reliability}' },
      ],
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs'] } },
    },
    rules: {
      // db, http, config → wecom → plugins → modules → main: a shared service (plugin) never reaches into a
      // domain module; modules meet only through each other's index.ts. See apps/server/README.md.
      'boundaries/element-types': [
        'error',
        {
          default: 'disallow',
          rules: [
            { from: 'main', allow: ['main', 'config', 'module', 'plugins', 'wecom', 'http', 'db'] },
            { from: 'module', allow: ['module', 'plugins', 'wecom', 'http', 'db', 'config'] },
            { from: 'plugins', allow: ['plugins', 'wecom', 'http', 'db', 'config'] },
            { from: 'wecom', allow: ['wecom', 'http', 'db', 'config'] },
            // config parses TRUST_PROXY with http/trust-proxy; http types the caller's corp with config's Corp.
            { from: 'config', allow: ['config', 'http'] },
            { from: 'http', allow: ['http', 'config'] },
            // db finds its migrations folder through config's server-root (the same from src/ and dist/).
            { from: 'db', allow: ['db', 'config'] },
            { from: 'testing', allow: ['main', 'config', 'module', 'plugins', 'wecom', 'http', 'db', 'testing'] },
          ],
        },
      ],
      'boundaries/entry-point': [
        'error',
        {
          default: 'allow',
          rules: [{ target: ['module'], disallow: ['!index.ts'] }],
        },
      ],
    },
  },
  {
    // A test may reach whatever it exercises: a query-plan guard reads a module's thresholds, a route test
    // another module's fixture. Production code keeps the layering above.
    files: ['apps/server/src/**/*.test.ts', 'apps/server/src/**/*.test-d.ts'],
    rules: { 'boundaries/element-types': 'off', 'boundaries/entry-point': 'off' },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, boundaries },
    settings: {
      'boundaries/include': ['apps/web/src/**/*'],
      'boundaries/elements': [
        { type: 'app', pattern: 'apps/web/src/app' },
        { type: 'feature', pattern: 'apps/web/src/features/*', capture: ['feature'] },
        { type: 'shared', pattern: 'apps/web/src/shared' },
        { type: 'testing', pattern: 'apps/web/src/testing' },
      ],
      // Node's resolution with TypeScript's extensions: relative imports are all the layering rules classify.
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs'] } },
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // shared → features → app: lower layers never import upper ones; features meet only through index.ts.
      'boundaries/element-types': [
        'error',
        {
          default: 'disallow',
          rules: WEB_LAYERS,
        },
      ],
      'boundaries/entry-point': [
        'error',
        {
          default: 'allow',
          rules: [{ target: ['feature'], disallow: ['!(index.ts|index.tsx)'] }],
        },
      ],
    },
  },
  {
    // A web test may use the shared fakes in src/testing (fake-api.ts); production code may not.
    files: ['apps/web/src/**/*.test.{ts,tsx}'],
    rules: {
      'boundaries/element-types': [
        'error',
        { default: 'disallow', rules: WEB_LAYERS.map((rule) => ({ ...rule, allow: [...new Set([...rule.allow, 'testing'])] })) },
      ],
    },
  },
);
