import test from 'ava';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

const REPORT = path.resolve(__dirname, '..', '..', 'api', 'loupe.api.md');

/** A top-level declaration of the report (`export interface Name`, `class Name_2`): its name. */
const TOP_LEVEL = /^(?:export )?(?:declare )?(?:abstract )?(?:class|interface|type|const|function|namespace) (\w+)/;

/**
 * The declarations api-extractor marks `(undocumented)` in an API report: the line after each
 * marker, trimmed, a member's prefixed with its declaration's name (`ClusterNode: readonly host`).
 * The marker stands alone (`// (undocumented)`, a member) or after the release tag
 * (`// @public (undocumented)`, an export).
 */
function undocumentedMembers(report: string): string[] {
  const lines = report.split('\n');
  const found: string[] = [];
  let container = '';
  lines.forEach((line, index) => {
    container = TOP_LEVEL.exec(line)?.[1] ?? container;
    if (!/^\s*\/\/ (?:@\w+ )?\(undocumented\)\s*$/.test(line)) return;
    const declaration = lines.slice(index + 1).find((next) => !next.trim().startsWith('//')) ?? '(end of report)';
    found.push(/^\s/.test(declaration) ? `${container}: ${declaration.trim()}` : declaration.trim());
  });
  return found;
}

/*
 * Every exported declaration and member has a doc comment: the committed report says so, and
 * test/package/api-report.test.ts checks that the report matches the sources. A new member
 * without one shows here once `npm run api` has regenerated the report.
 */
test('every member of the public API is documented: the API report has no (undocumented) entry', async (t) => {
  const report = await readFile(REPORT, 'utf8');
  t.regex(report, /^## API Report File for "loupe-kernel"/, `${REPORT} is not api-extractor's report`);
  const missing = undocumentedMembers(report);
  t.deepEqual(missing, [], `Add a doc comment (/** … */) in src/ to each of these, then run \`npm run api\`:\n${missing.join('\n')}`);
});

test('the check finds an undocumented export and an undocumented member, and names each', (t) => {
  const report = [
    '// @public (undocumented)',
    "export type AppEnv = 'dev' | 'prod' | 'test';",
    '',
    '// @public',
    'export interface ClusterNode {',
    '    // (undocumented)',
    '    readonly host: string;',
    '    readonly port: number;',
    '}',
  ].join('\n');
  t.deepEqual(undocumentedMembers(report), ["export type AppEnv = 'dev' | 'prod' | 'test';", 'ClusterNode: readonly host: string;']);
});
