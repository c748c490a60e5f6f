import './enable-source-maps';
import cluster from 'node:cluster';
import { createLogger, readConfig, serve } from '../src';
import { createDemoApp } from './demo-app';
import { readDemoConfig, SQL_ROUTES_HINT } from './demo-config';

/** `make run` / `npm start`: serve the demo application (WORKERS=N: on N processes) until SIGINT or SIGTERM. */
async function main(): Promise<void> {
  const config = readConfig();
  const demo = readDemoConfig();
  const logger = createLogger(config.log);
  await serve((workerConfig, workerLogger) => createDemoApp(workerConfig, workerLogger, demo), { config, logger });
  // Once, under the listening line (workers run this file too); LOG_LEVEL=silent hides it, the welcome page still says it.
  if (demo.databaseUrl === null && cluster.isPrimary) logger.info(SQL_ROUTES_HINT);
}

main().catch((error: unknown) => {
  process.stderr.write(`Loupe could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
