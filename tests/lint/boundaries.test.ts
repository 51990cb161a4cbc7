// The import-boundary rules really fail on the imports they forbid: the fixture tree under
// tests/fixtures/boundaries breaks one rule per file, and is cruised with the project's own config.
import { createRequire } from 'node:module';
import path from 'node:path';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const projectConfig = require('../../.dependency-cruiser.cjs') as { forbidden: unknown[] };
const fixtureDir = path.resolve('tests/fixtures/boundaries');

async function violationsOf(files: string[]) {
  const result = await cruise(files, {
    baseDir: fixtureDir,
    validate: true,
    ruleSet: { forbidden: projectConfig.forbidden } as never,
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
  });
  const output = result.output as ICruiseResult;
  return output.summary.violations.map((violation) => `${violation.rule.name}: ${violation.from} -> ${violation.to}`);
}

describe('import boundaries', () => {
  it('refuses a domain importing the HTTP layer', async () => {
    expect(await violationsOf(['server/domains/orders/orders.service.ts'])).toContain(
      'domains-never-import-http-or-app: server/domains/orders/orders.service.ts -> server/http/envelope.ts',
    );
  });

  it('refuses a route file importing another route file', async () => {
    expect(await violationsOf(['server/http/routes/order.routes.ts'])).toContain(
      'route-files-never-import-each-other: server/http/routes/order.routes.ts -> server/http/routes/cart.routes.ts',
    );
  });

  it('refuses storefront code importing console code', async () => {
    expect(await violationsOf(['app/components/header.tsx'])).toContain(
      'storefront-never-imports-admin: app/components/header.tsx -> app/admin/staff-list.tsx',
    );
  });

  it('refuses two domains that import each other', async () => {
    const violations = await violationsOf(['server/domains/cart/cart.service.ts']);
    expect(violations).toContain('no-folder-cycles: server/domains/cart -> server/domains/orders');
    expect(violations).toContain(
      'no-cycles: server/domains/cart/cart.service.ts -> server/domains/orders/order-total.ts',
    );
  });

  it('passes the files that break none of the rules', async () => {
    expect(await violationsOf(['server/http/routes/cart.routes.ts', 'app/admin/staff-list.tsx'])).toEqual([]);
  });
});
