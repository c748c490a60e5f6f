/**
 * Which way Loupe's dependencies point: http ← kernel ← features ← entry point ← demo.
 * Checked by test/architecture/dependencies.test.ts (`npx depcruise src machines demo`).
 */
const FEATURES = '^src/(routing|security|session|profiler|error-handler|view|server|redis|config|log)/';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle makes the layers meaningless, also through type-only imports: what depends on what is read from the types as much as from the code.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'demo-uses-the-entry-point',
      severity: 'error',
      comment: 'An application imports src/index.ts only: everything else is internal.',
      from: { path: '^demo/' },
      to: { path: '^src/', pathNot: '^src/index\\.ts$' },
    },
    { name: 'src-knows-no-demo', severity: 'error', from: { path: '^(src|machines)/' }, to: { path: '^demo/' } },
    { name: 'machines-are-pure', severity: 'error', comment: 'machines/ define flow only; src/ provides implementations.', from: { path: '^machines/' }, to: { path: '^src/' } },
    { name: 'errors-are-a-leaf', severity: 'error', from: { path: '^src/errors/' }, to: { path: '^src/', pathNot: '^src/errors/' } },
    { name: 'http-is-below-the-kernel', severity: 'error', from: { path: '^src/http/' }, to: { path: '^src/', pathNot: '^src/(http|errors)/' } },
    {
      name: 'the-kernel-knows-no-feature',
      severity: 'error',
      from: { path: '^src/kernel/' },
      to: { path: '^src/', pathNot: '^src/(kernel|http|errors)/' },
    },
    {
      name: 'features-do-not-use-the-entry-point',
      severity: 'error',
      comment: 'Features may implement the plugin contract (loupe/plugin.ts); the profiler commands use the parts of the CLI, not its main.',
      from: { path: FEATURES },
      to: { path: '^src/(index\\.ts|loupe/|cli/)', pathNot: '^src/(loupe/plugin\\.ts|cli/(command|cli-io|cli-error|parse-command-args|package-version|commands/connection-help|format/(format-duration|format-table))\\.ts)$' },
    },
    {
      name: 'the-profiler-is-one-plugin',
      severity: 'error',
      comment: 'Outside src/profiler/ only its entry is imported, and the types of its contract with plugins: the plugin loads its parts itself, and prod loads none of them.',
      from: { path: '^src/', pathNot: '^src/profiler/' },
      to: { path: '^src/profiler/', pathNot: '^src/profiler/(index|contract)\\.ts$' },
    },
    {
      name: 'the-profiler-uses-the-kernel-as-any-plugin-does',
      severity: 'error',
      comment:
        "The profiler reaches Loupe's kernel through its public API only (events' accessors, currentRequest(), CollectedRequest), as any plugin or adapter would: never the Exchange, the machine or the dispatcher.",
      from: { path: '^src/profiler/' },
      to: { path: '^src/kernel/', pathNot: '^src/kernel/(attributes|collected-request|controller|kernel-attributes|kernel-events|listener|request-context|request-records|stopwatch|trace)\\.ts$' },
    },
    {
      name: 'ws-is-for-profiler-serve',
      severity: 'error',
      comment:
        "ws serves the live feed's WebSocket on node:http (`loupe profiler:serve`, and the adapters' servers through serveLiveFeed), loaded only when it serves: the kernel serves WebSockets with uWS.",
      from: { pathNot: '^src/profiler/serve/' },
      to: { path: '(^|/)node_modules/(@types/)?ws/' },
    },
    {
      name: 'src-needs-no-test-runner',
      severity: 'error',
      comment:
        "loupe-kernel/testing fails a test with node:assert's AssertionError, which every runner reports (node:test, ava, vitest, Jest, Mocha): no module of src/ loads a runner or an assertion library, which the application may not have.",
      from: { path: '^src/' },
      to: { path: '(^|/)node_modules/(ava|vitest|jest|@jest/[^/]+|mocha|chai|tap|uvu)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(node_modules|dist)/' },
  },
};
