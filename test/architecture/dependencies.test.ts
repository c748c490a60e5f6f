import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const ROOT = path.resolve(__dirname, '..', '..');
const DEPCRUISE = path.join(ROOT, 'node_modules', '.bin', 'depcruise');
const CONFIG = path.join(ROOT, '.dependency-cruiser.js');
const run = promisify(execFile);

/** Runs dependency-cruiser in `cwd`; resolves with its exit code and report. */
async function cruise(cwd: string, paths: readonly string[]): Promise<{ code: number; report: string }> {
  try {
    const { stdout } = await run(DEPCRUISE, [...paths, '--config', CONFIG, '--output-type', 'err'], { cwd });
    return { code: 0, report: stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, report: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

test('dependencies point one way, with no cycle: http ← kernel ← features ← entry point ← demo', async (t) => {
  const { code, report } = await cruise(ROOT, ['src', 'machines', 'demo']);
  t.is(code, 0, report);
  t.regex(report, /no dependency violations found/);
});

test('the rules catch a demo module that imports an internal module of src/, a cycle, the profiler reaching a kernel internal, ws outside profiler:serve, and a test runner loaded by src/', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'loupe-deps-'));
  try {
    await mkdir(path.join(dir, 'src', 'kernel'), { recursive: true });
    await mkdir(path.join(dir, 'demo'));
    await writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'CommonJS' } }));
    await writeFile(path.join(dir, 'src', 'index.ts'), "export { a } from './kernel/a';\n");
    await writeFile(path.join(dir, 'src', 'kernel', 'a.ts'), "import { b } from './b';\nexport const a = (): number => b();\n");
    await writeFile(path.join(dir, 'src', 'kernel', 'b.ts'), "import { a } from './a';\nexport const b = (): number => (a ? 1 : 0);\n");
    await writeFile(path.join(dir, 'demo', 'app.ts'), "import { a } from '../src';\nimport { b } from '../src/kernel/b';\nexport const c = a() + b();\n");
    await mkdir(path.join(dir, 'src', 'profiler'));
    await writeFile(path.join(dir, 'src', 'kernel', 'exchange.ts'), 'export class Exchange {}\n');
    await writeFile(path.join(dir, 'src', 'kernel', 'listener.ts'), 'export const defineListener = (): null => null;\n');
    await writeFile(path.join(dir, 'src', 'profiler', 'spy.ts'), "import { Exchange } from '../kernel/exchange';\nimport { defineListener } from '../kernel/listener';\nexport const spy = [Exchange, defineListener];\n");
    // ws resolved from the repository's packages: allowed to the pages' own server, not to the core.
    await symlink(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    await mkdir(path.join(dir, 'src', 'profiler', 'core'));
    await mkdir(path.join(dir, 'src', 'profiler', 'serve'));
    await writeFile(path.join(dir, 'src', 'profiler', 'core', 'socket.ts'), "import { WebSocketServer } from 'ws';\nexport const socket = WebSocketServer;\n");
    await writeFile(path.join(dir, 'src', 'profiler', 'serve', 'socket.ts'), "import { WebSocketServer } from 'ws';\nexport const socket = WebSocketServer;\n");
    // A test runner resolved from the repository's packages: no module of src/ may load one.
    await mkdir(path.join(dir, 'src', 'profiler', 'testing'));
    await writeFile(path.join(dir, 'src', 'profiler', 'testing', 'expect.ts'), "import test from 'ava';\nexport const expect = test;\n");
    const { code, report } = await cruise(dir, ['src', 'demo']);
    t.not(code, 0);
    t.regex(report, /demo-uses-the-entry-point: demo\/app\.ts → src\/kernel\/b\.ts/);
    t.regex(report, /no-circular/);
    t.regex(report, /the-profiler-uses-the-kernel-as-any-plugin-does: src\/profiler\/spy\.ts → src\/kernel\/exchange\.ts/);
    t.notRegex(report, /src\/profiler\/spy\.ts → src\/kernel\/listener\.ts/);
    t.regex(report, /ws-is-for-profiler-serve: src\/profiler\/core\/socket\.ts → \S*node_modules\/ws\//);
    t.notRegex(report, /src\/profiler\/serve\/socket\.ts →/);
    t.regex(report, /src-needs-no-test-runner: src\/profiler\/testing\/expect\.ts → \S*node_modules\/ava\//);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
