// Import boundaries of the shop (docs/architecture.md, "Layers"). `npm run lint` fails on any of these.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment:
        "No import cycles between files. Type-only imports vanish at run time and a dynamic import runs after both modules loaded (a lazy dialog using its opener's context), so a loop closed only by one of those is allowed.",
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only', 'dynamic-import'] } },
    },
    {
      name: 'no-folder-cycles',
      severity: 'error',
      comment: 'No cycles between folders either: two domains that need each other share a piece that belongs lower.',
      scope: 'folder',
      from: { path: '^(server|app|i18n)/' },
      to: { circular: true },
    },
    {
      name: 'domains-never-import-http-or-app',
      severity: 'error',
      comment:
        'Domains, jobs, shared code and the database layer are used by the HTTP doors and pages, never the reverse.',
      from: { path: '^server/(domains|jobs|shared|db|cli)/' },
      to: { path: '^(server/http/|server/app\\.ts|app/)' },
    },
    {
      name: 'route-files-never-import-each-other',
      severity: 'error',
      comment: 'A shape two routes share belongs in a domain *.schemas.ts file.',
      from: { path: '^server/http/routes/' },
      to: { path: '^server/http/routes/' },
    },
    {
      name: 'database-schema-never-imports-domains',
      severity: 'error',
      from: { path: '^server/db/schema/' },
      to: { path: '^server/(domains|http)/' },
    },
    {
      name: 'shared-never-imports-domains',
      severity: 'error',
      from: { path: '^server/shared/' },
      to: { path: '^server/(domains|db|jobs)/' },
    },
    {
      name: 'pages-never-import-server-internals',
      severity: 'error',
      comment:
        'Page code reaches the server through the services in the load context, *.schemas.ts and server/shared only.',
      from: { path: '^(app|i18n)/' },
      to: { path: '^server/(http|db|jobs|cli)/|^server/(app|main|runtime)\\.ts$' },
    },
    {
      name: 'pages-import-only-the-type-of-the-load-context',
      severity: 'error',
      comment: 'Loaders get the services through their load context; only its type is imported.',
      from: { path: '^(app|i18n)/' },
      to: { path: '^server/services\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'pages-import-only-types-of-domain-services',
      severity: 'error',
      from: { path: '^(app|i18n)/' },
      to: { path: '^server/domains/', pathNot: '\\.schemas\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'storefront-never-imports-admin',
      severity: 'error',
      from: { path: '^app/', pathNot: '^app/admin/' },
      to: { path: '^app/admin/' },
    },
    {
      name: 'production-code-never-imports-tests',
      severity: 'error',
      from: { path: '^(server|app|i18n)/', pathNot: '\\.test\\.tsx?$' },
      to: { path: '^tests/|\\.test\\.tsx?$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(build|data|node_modules|\\.react-router)/|\\.(test|spec)\\.tsx?$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
