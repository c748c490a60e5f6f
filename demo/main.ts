import { readConfig } from '../src';
import { createDemoApp } from './demo-app';

/** `make run` / `npm start`: serve the demo application until SIGINT or SIGTERM. */
async function main(): Promise<void> {
  const config = readConfig();
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  const app = createDemoApp(config, log);
  const { url } = await app.listen();
  process.stdout.write(`Loupe listening on ${url} (APP_ENV=${config.appEnv}, debug ${config.debug ? 'on' : 'off'})\n`);
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    log(`${signal} received: finishing in-flight requests…`);
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        log(`Shutdown failed: ${String(error)}`);
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
