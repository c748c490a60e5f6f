import path from 'node:path';
import { readConfig } from '../../config/config';
import { createLogger } from '../../log/create-logger';
import { createLoupe, type Loupe } from '../../loupe/create-loupe';
import { CliError } from '../cli-error';
import { type CliCommand } from '../command';
import { registerTsNode } from '../register-ts-node';
import { formatTable } from '../format/format-table';
import { KernelEvents } from '../../kernel/kernel-events';

const HELP = `Usage: loupe debug:listeners [--app MODULE] [--phase PHASE]

Prints the listeners of each kernel phase in the order they run, with their priorities, as
Symfony's debug:event-dispatcher does; the phases in the order of the request's lifecycle
(kernel.request first, kernel.terminate last). Connects to Redis (REDIS_URL), as the application does.

  --app MODULE       a module exporting the application: a Loupe, or a create…() function that
                     returns one (e.g. --app dist/app.js; a .ts module needs ts-node installed,
                     e.g. --app demo/demo-app.ts); without it, Loupe's default
                     listeners for the environment's configuration (APP_ENV, APP_DEBUG)
  --phase PHASE      only this phase, e.g. kernel.response
`;

const OPTIONS = { app: { type: 'string' }, phase: { type: 'string' } } as const;

function isLoupe(value: unknown): value is Loupe {
  return typeof value === 'object' && value !== null && typeof (value as { listenerTable?: unknown }).listenerTable === 'function';
}

/** The application a module exports: a Loupe, or what a `create…` function of it returns. */
function loadApp(modulePath: string, cwd: string): Loupe {
  const resolved = path.resolve(cwd, modulePath);
  if (resolved.endsWith('.ts')) registerTsNode(modulePath, path.dirname(resolved));
  let exported: Record<string, unknown>;
  try {
    exported = require(resolved) as Record<string, unknown>;
  } catch (error) {
    throw new CliError(1, `Cannot load the application module "${modulePath}": ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  for (const [name, value] of Object.entries(exported)) {
    if (isLoupe(value)) return value;
    if (typeof value === 'function' && name.startsWith('create')) {
      const made: unknown = (value as () => unknown)();
      if (isLoupe(made)) return made;
    }
  }
  throw new CliError(1, `The module "${modulePath}" exports no Loupe application (nor a create…() function returning one).`);
}

const LIFECYCLE: readonly string[] = Object.values(KernelEvents);

/** Where a phase comes in the lifecycle; a phase the kernel does not know comes after the ones it does. */
function lifecycleIndex(phase: string): number {
  const index = LIFECYCLE.indexOf(phase);
  return index === -1 ? LIFECYCLE.length : index;
}

/** `loupe debug:listeners`: the listener table of an application, phase by phase. */
export const debugListenersCommand: CliCommand = {
  name: 'debug:listeners',
  summary: "print each kernel phase's listeners in the order they run",
  help: HELP,
  options: OPTIONS,
  async run(args, io) {
    if (args.positionals.length > 0) throw CliError.usage(`debug:listeners takes no arguments, got "${args.positionals.join(' ')}".`);
    const module = args.string('app');
    const app = module === undefined ? createLoupe({ routes: [], config: readConfig({ APP_SECRET: 'unused-by-debug-listeners', ...io.env }), logger: createLogger({ level: 'silent', format: 'json' }) }) : loadApp(module, process.cwd());
    try {
      const phase = args.string('phase');
      // The table comes in registration order; a reader follows a request from its first phase.
      const table = (await app.listenerTable())
        .filter((row) => phase === undefined || row.phase === phase)
        .sort((a, b) => lifecycleIndex(a.phase) - lifecycleIndex(b.phase));
      if (table.length === 0) throw new CliError(1, `No listener is registered for "${phase ?? ''}".`);
      for (const row of table) {
        const heading = `Registered listeners for "${row.phase}"`;
        io.out(`${heading}\n${'='.repeat(heading.length)}\n\n`);
        io.out(formatTable(['Order', 'Listener', 'Priority'], row.listeners.map((listener, index) => [`#${index + 1}`, listener.name, String(listener.priority)])));
        io.out('\n');
      }
      return 0;
    } finally {
      await app.close();
    }
  },
};
