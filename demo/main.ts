import { serve } from '../src';
import { createDemoApp } from './demo-app';

/** `make run` / `npm start`: serve the demo application (WORKERS=N: on N processes) until SIGINT or SIGTERM. */
serve((config, logger) => createDemoApp(config, logger)).catch((error: unknown) => {
  process.stderr.write(`Loupe could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
