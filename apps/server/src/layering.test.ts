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
const eslint = new ESLint({ cwd: repoRoot });

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
