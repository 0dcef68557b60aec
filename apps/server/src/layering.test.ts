import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The layering rules in eslint.config.js are what keep a plugin out of a module and a module out of another
 * module's insides (apps/server/README.md, apps/web/README.md). A rule that silently stopped matching — a moved
 * folder, a renamed pattern, a plugin upgrade — would let every later import through, so these cases lint real
 * imports of real files, as if written in a new file at the given place, and expect the verdict.
 */
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
// Only the layering rules run, parsed without a type-checked program: a probe file is in no tsconfig, and the
// type-aware rules (ADR 0060) would refuse it before the boundaries rules look at its imports.
const eslint = new ESLint({
  cwd: repoRoot,
  ruleFilter: ({ ruleId }) => ruleId.startsWith('boundaries/'),
  overrideConfig: { languageOptions: { parserOptions: { project: null, projectService: false } } },
});

async function layeringErrors(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: `${repoRoot}${filePath}` });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message).filter((rule) => rule.startsWith('boundaries/'));
}

describe('server layering (eslint-plugin-boundaries)', () => {
  it('refuses a plugin that imports a module', async () => {
    const errors = await layeringErrors(
      'apps/server/src/plugins/layering-probe.ts',
      "import { auditRoutes } from '../modules/audit';\nexport const probe = auditRoutes;\n",
    );
    expect(errors).toEqual(['boundaries/element-types']);
  });

  it('refuses db code that imports http-level or module code', async () => {
    const errors = await layeringErrors(
      'apps/server/src/db/layering-probe.ts',
      "import { ApiError } from '../http/api-error';\nexport const probe = ApiError;\n",
    );
    expect(errors).toEqual(['boundaries/element-types']);
  });

  it("refuses a module that reaches into another module's files instead of its index", async () => {
    const errors = await layeringErrors(
      'apps/server/src/modules/kyc/layering-probe.ts',
      "import { createAuditRepository } from '../audit/audit.repository';\nexport const probe = createAuditRepository;\n",
    );
    expect(errors).toEqual(['boundaries/entry-point']);
  });

  it('lets a module use another module through its index, and a plugin use db and http', async () => {
    expect(
      await layeringErrors(
        'apps/server/src/modules/kyc/layering-probe.ts',
        "import { auditRoutes } from '../audit';\nexport const probe = auditRoutes;\n",
      ),
    ).toEqual([]);
    expect(
      await layeringErrors(
        'apps/server/src/plugins/layering-probe.ts',
        "import { ApiError } from '../http/api-error';\nimport type { DatabaseHandle } from '../db/client';\nexport const probe: [typeof ApiError, DatabaseHandle | null] = [ApiError, null];\n",
      ),
    ).toEqual([]);
  });
});

/** Each module's production files and the modules they import (`'../<module>'`: lint allows only the index). */
function moduleImports(): Map<string, Set<string>> {
  const root = new URL('modules/', import.meta.url);
  const graph = new Map<string, Set<string>>();
  for (const module of readdirSync(root)) {
    const imports = new Set<string>();
    for (const file of readdirSync(new URL(`${module}/`, root), { recursive: true, encoding: 'utf8' })) {
      if (!/\.tsx?$/.test(file) || /\.test(-d)?\.tsx?$|\.fixture\.ts$|fixtures?\.ts$/.test(file)) continue;
      const text = readFileSync(new URL(`${module}/${file}`, root), 'utf8');
      for (const [, other] of text.matchAll(/(?:from|import\()\s*'\.\.\/([\w-]+)'/g)) if (other !== module) imports.add(other!);
    }
    graph.set(module, imports);
  }
  return graph;
}

/** The first import cycle found, as `a → b → a`; null when the graph has none. */
function firstCycle(graph: Map<string, Set<string>>): string | null {
  const done = new Set<string>();
  const visit = (node: string, path: string[]): string | null => {
    if (path.includes(node)) return [...path.slice(path.indexOf(node)), node].join(' → ');
    if (done.has(node)) return null;
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next, [...path, node]);
      if (cycle) return cycle;
    }
    done.add(node);
    return null;
  };
  for (const node of graph.keys()) {
    const cycle = visit(node, []);
    if (cycle) return cycle;
  }
  return null;
}

describe('server modules', () => {
  // Boundaries allows module → module through an index in either direction; a cycle would tie two areas
  // into one that neither can be changed, tested or deleted without (the app wires them instead).
  it('import one another in one direction only', () => {
    const graph = moduleImports();
    expect(graph.get('mot-push')).toContain('mot');
    expect(firstCycle(graph)).toBeNull();
  });

  it('finds a cycle when there is one', () => {
    expect(
      firstCycle(
        new Map([
          ['a', new Set(['b'])],
          ['b', new Set(['c'])],
          ['c', new Set(['a'])],
        ]),
      ),
    ).toBe('a → b → c → a');
  });
});

describe('web layering (eslint-plugin-boundaries)', () => {
  it('refuses shared code that imports a feature, and a feature reached past its index', async () => {
    expect(
      await layeringErrors(
        'apps/web/src/shared/layering-probe.ts',
        "import { auditPages } from '../features/audit';\nexport const probe = auditPages;\n",
      ),
    ).toEqual(['boundaries/element-types']);
    expect(
      await layeringErrors(
        'apps/web/src/features/mot/layering-probe.ts',
        "import { i18n } from '../../shared/i18n/i18n';\nimport { probe as other } from '../kyc/kyc-index-page';\nexport const probe = [i18n, other];\n",
      ),
    ).toEqual(['boundaries/entry-point']);
  });

  it('refuses production web code that imports the test fakes', async () => {
    expect(
      await layeringErrors(
        'apps/web/src/features/mot/layering-probe.ts',
        "import { jsonResponse } from '../../testing/fake-api';\nexport const probe = jsonResponse;\n",
      ),
    ).toEqual(['boundaries/element-types']);
  });
});
