import { createLogger, readConfig } from '../src';
import { createDemoApp } from './demo-app';

/** `make run` / `npm start`: serve the demo application until SIGINT or SIGTERM. */
async function main(): Promise<void> {
  const config = readConfig();
  const logger = createLogger(config.log);
  const app = createDemoApp(config, logger);
  const { url, profilerUrl } = await app.listen();
  // The one line that says where the server is (scripts and tests wait for it): printed whatever LOG_LEVEL hides.
  const profiler = profilerUrl === null ? '' : ` — profiler: ${profilerUrl}`;
  logger.child({}, { level: 'info' }).info(`Loupe listening on ${url}${profiler} (APP_ENV=${config.appEnv}, debug ${config.debug ? 'on' : 'off'})`);
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal} received: finishing in-flight requests…`);
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'Shutdown failed.');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(`Loupe could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
