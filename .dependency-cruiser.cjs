/* global module */
/**
 * The import rules `npm run lint` checks (dependency-cruiser): no import circle anywhere, type
 * imports included, and the folder boundaries of docs/architecture.md §4.
 */
const notTest = '\\.test\\.tsx?$'

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A circle makes every module in it load and change together; move the shared part into a module both import.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'portal-knows-only-the-contract',
      severity: 'error',
      comment: 'The portal works the same against a remote relay: of the relay it imports only relay/contract/.',
      from: { path: '^app/', pathNot: notTest },
      to: { path: '^relay/(?!contract/)' },
    },
    {
      name: 'contract-stands-alone',
      severity: 'error',
      comment: 'relay/contract/ is shipped to the portal: it imports nothing else of the relay.',
      from: { path: '^relay/contract/' },
      to: { path: '^relay/(?!contract/)' },
    },
    {
      name: 'relay-knows-not-its-callers',
      severity: 'error',
      comment: 'The relay runs on its own: its code imports neither the portal nor the server that embeds it.',
      from: { path: '^relay/', pathNot: notTest },
      to: { path: '^(app|server)/' },
    },
    {
      name: 'keys-before-proxy',
      severity: 'error',
      comment: "keys/ stores the keys and their controls; proxy/ enforces them on calls (proxy/key-charge.ts), so keys/ never imports proxy/.",
      from: { path: '^relay/keys/' },
      to: { path: '^relay/proxy/' },
    },
    {
      name: 'code-not-from-tests',
      severity: 'error',
      comment: 'Fixtures and benchmarks are for tests; the shipped code never imports them.',
      from: { path: '^(app|relay|server|scripts)/', pathNot: notTest },
      to: { path: '^(tests|bench)/' },
    },
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.json' },
    // Type-only imports count: a circle of types still ties the modules together.
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|build|\\.react-router)/' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
}
