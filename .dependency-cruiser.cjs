/**
 * The architecture, as rules (test/architecture.test.ts runs them; `npx depcruise src commands` shows them).
 * Why each rule exists is in its comment; README's Architecture section is the map they enforce.
 */
const STORE_FILES = [
  '^src/engine/(sqlite|postgres)/',
  '^src/(keys|limits|refdata)/(sqlite|postgres)[.]ts$',
  '^src/blobs/(file|postgres)[.]ts$',
];

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle means two modules cannot be understood, tested or moved apart.',
      from: {},
      to: { circular: true, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'pipeline-is-pure',
      severity: 'error',
      comment:
        'Extraction stages take a document and return results: no jobs, stores, HTTP or reports, so they run the same in a thread, a test or a bench.',
      from: { path: '^src/lab/pipeline/' },
      to: {
        path: '^src/(engine|blobs|server|delivery|keys|limits|store|report|review|cli|doctor|refdata)/|^src/lab/(job|http|batch|output)/|^src/kinds[.]ts$|^commands/',
      },
    },
    {
      name: 'database-drivers-only-in-stores',
      severity: 'error',
      comment: 'SQL lives in the store files only; everything else goes through a store interface.',
      from: { pathNot: STORE_FILES },
      to: { path: 'node_modules/(better-sqlite3|pg|postgres)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'src-never-imports-commands',
      severity: 'error',
      comment:
        'Commands are thin shells over src/; the other way round would make src/ depend on oclif flags.',
      from: { path: '^src/' },
      to: { path: '^commands/' },
    },
    {
      name: 'areas-below-server',
      severity: 'error',
      comment: 'The HTTP server sits on top: jobs, stores and reports never need to know it exists.',
      from: { path: '^src/', pathNot: '^src/server/' },
      to: { path: '^src/server/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
