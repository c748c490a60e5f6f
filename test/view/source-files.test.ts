import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import test from 'ava';
import { readSourceExcerpts } from '../../src/view/read-source-excerpts';
import { createSourceFiles } from '../../src/view/source-files';

/** An application root with a source file, a dependency, a secret and links out, beside a directory outside it. */
async function layout(): Promise<{ root: string; outside: string; close: () => Promise<void> }> {
  const base = await mkdtemp(path.join(tmpdir(), 'loupe-source-files-'));
  const root = path.join(base, 'app');
  const outside = path.join(base, 'outside');
  await mkdir(path.join(root, 'src'), { recursive: true });
  await mkdir(path.join(root, 'node_modules', 'dep'), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(root, 'src', 'app.ts'), 'line 1\nline 2 APP_SOURCE\nline 3\n');
  await writeFile(path.join(root, 'node_modules', 'dep', 'index.js'), 'DEPENDENCY\n');
  await writeFile(path.join(root, '.env'), 'REDIS_URL=SECRET_ENV\n');
  await writeFile(path.join(outside, 'secret.ts'), 'OUTSIDE_SECRET\n');
  // A link inside the root whose name looks like source, to a file outside it; and one to the .env.
  await symlink(path.join(outside, 'secret.ts'), path.join(root, 'src', 'linked.ts'));
  await symlink(path.join(root, '.env'), path.join(root, 'src', 'env.ts'));
  return { root, outside, close: () => rm(base, { recursive: true, force: true }) };
}

test('a file is read only when its real path is a source file under the root, outside node_modules', async (t) => {
  const { root, outside, close } = await layout();
  t.teardown(close);
  const sources = createSourceFiles(root);
  const app = path.join(root, 'src', 'app.ts');
  t.is(await sources.resolve(app), app);
  t.is(await sources.resolve(pathToFileURL(app).href), app, 'an ES module frame names a file URL');
  const refused = [
    '/etc/passwd',
    '/proc/self/environ',
    path.join(root, '.env'),
    path.join(root, 'node_modules', 'dep', 'index.js'),
    path.join(outside, 'secret.ts'),
    path.join(root, 'src', 'linked.ts'),
    path.join(root, 'src', 'env.ts'),
    path.join(root, 'src', '..', '..', 'outside', 'secret.ts'),
    path.join(root, 'src', 'missing.ts'),
    'src/app.ts',
  ];
  for (const file of refused) t.is(await sources.resolve(file), null, file);
  const read = await readSourceExcerpts(
    [...refused, app].map((file) => ({ file, line: 1 })),
    sources,
  );
  t.deepEqual(read(app, 2)?.lines, ['line 1', 'line 2 APP_SOURCE', 'line 3', '']);
  for (const file of refused) t.is(read(file, 1), null, file);
});

test('a root reached through a link is the same root', async (t) => {
  const { root, close } = await layout();
  t.teardown(close);
  const linkedRoot = `${root}-link`;
  await symlink(root, linkedRoot);
  t.teardown(() => rm(linkedRoot, { force: true }));
  const sources = createSourceFiles(linkedRoot);
  t.is(await sources.resolve(path.join(linkedRoot, 'src', 'app.ts')), path.join(root, 'src', 'app.ts'));
  t.is(await sources.resolve(path.join(linkedRoot, 'src', 'linked.ts')), null);
});

test('a file\'s lines are read once for the pages rendered within a second, and an edit shows after it', async (t) => {
  const { root, close } = await layout();
  t.teardown(close);
  const sources = createSourceFiles(root);
  const app = path.join(root, 'src', 'app.ts');
  const first = await sources.lines(app);
  t.is(first?.[1], 'line 2 APP_SOURCE');
  // Rewritten at once: the lines read a moment ago are served, not the disk's (no read per page).
  await writeFile(app, 'line 1\nline 2 EDITED\nline 3\n');
  t.is(await sources.lines(app), first);
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  t.is((await sources.lines(app))?.[1], 'line 2 EDITED');
  t.is(await sources.lines(path.join(root, '.env')), null, 'what resolve refuses has no lines');
});
