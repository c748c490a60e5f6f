import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { packedFreshClone } from './packed-tarball';

const ROOT = path.resolve(__dirname, '..', '..');
const BIN = path.join(ROOT, 'node_modules', '.bin');
const run = promisify(execFile);

/*
 * The public surface is reviewed: api-extractor reads the declarations of the entry point and
 * fails on any type an application meets in a public signature but cannot import
 * (ae-forgotten-export), and on any difference from the committed report api/loupe.api.md.
 * A change to the public API updates that report (`npm run api`), so it shows in review.
 */
test('the entry point exports every type its signatures use, and the API report is up to date', async (t) => {
  t.timeout(400_000);
  // The declarations `npm pack` builds on a fresh clone (made once per run for the package tests).
  const { stage } = await packedFreshClone();
  // Inside the repository (git-ignored): api-extractor looks for the package.json above the declarations.
  await mkdir(path.join(ROOT, '.api-temp'), { recursive: true });
  const work = await mkdtemp(path.join(ROOT, '.api-temp', 'run-'));
  try {
    const dist = path.join(stage, 'dist');
    const config = path.join(work, 'api-extractor.json');
    await writeFile(
      config,
      JSON.stringify({
        extends: path.join(ROOT, 'api-extractor.json'),
        projectFolder: ROOT,
        mainEntryPointFilePath: path.join(dist, 'src', 'index.d.ts'),
        apiReport: { enabled: true, reportFolder: path.join(ROOT, 'api'), reportTempFolder: path.join(work, 'api-temp'), reportFileName: 'loupe' },
      }),
    );
    const result = await run(path.join(BIN, 'api-extractor'), ['run', '--config', config], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 }).then(
      ({ stdout }) => ({ ok: true, output: stdout }),
      (error: { stdout?: string; stderr?: string }) => ({ ok: false, output: `${error.stdout ?? ''}${error.stderr ?? ''}` }),
    );
    t.notRegex(result.output, /ae-forgotten-export/, result.output);
    t.true(result.ok, `api-extractor failed; if the change to the public API is meant, run \`npm run api\` and commit api/loupe.api.md:\n${result.output}`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
});
