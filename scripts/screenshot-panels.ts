/**
 * The README's images: serves the demo with its SQL routes on, requests its I/O routes and an
 * error, and saves the database, HTTP client, Redis and Exception panels of their profiles, the
 * error page and the search page as PNGs with headless Chromium (Debian's, at /usr/bin/chromium;
 * Playwright downloads no browser here).
 *
 *   npx ts-node --transpile-only scripts/screenshot-panels.ts     (make screenshots)
 *
 * DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) and REDIS_URL as for the
 * demo; its Redis keys go under a prefix of their own, deleted at the end.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Redis } from 'ioredis';
import { chromium } from 'playwright-core';
import { createDemoApp } from '../demo/demo-app';
import { createLogger, readConfig } from '../src';

const CHROMIUM = '/usr/bin/chromium';
const OUT = path.resolve(__dirname, '..', 'docs', 'images');

/** Which route's profile each image shows, and which panel of it. */
const SHOTS = [
  { file: 'panel-db.png', path: '/io/users-n-plus-one', panel: 'db' },
  { file: 'panel-http-client.png', path: '/io/upstream?n=1', panel: 'http_client' },
  { file: 'panel-redis.png', path: '/io/cache/answer', panel: 'redis' },
  { file: 'panel-exception.png', path: '/boom', panel: 'exception' },
] as const;

/** Pages shown as a browser shows them: the error page with its toolbar, and the search page after the requests above. */
const PAGES = [
  { file: 'error-page.png', path: '/boom' },
  { file: 'search.png', path: '/_profiler/search?limit=10' },
] as const;

async function deleteKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

async function main(): Promise<void> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is not installed at ${CHROMIUM}: run \`apt-get update && apt-get install -y chromium\` (make test-tools).`);
  const env = process.env;
  const prefix = `loupe-screenshots:${randomBytes(4).toString('hex')}:`;
  const config = readConfig({ ...env, APP_ENV: 'dev', APP_DEBUG: '1', HOST: '127.0.0.1', PORT: '0', REDIS_PREFIX: prefix });
  const databaseUrl = env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const app = createDemoApp(config, createLogger({ level: 'warn', format: 'json' }), { databaseUrl });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  try {
    const { url } = await app.listen();
    await mkdir(OUT, { recursive: true });
    // Once first, so that the pictures show a warm cache hit and tables that exist.
    for (const shot of SHOTS) await fetch(`${url}${shot.path}`).then((response) => response.arrayBuffer());
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    for (const shot of SHOTS) {
      const response = await fetch(`${url}${shot.path}`);
      await response.arrayBuffer();
      const token = response.headers.get('x-debug-token');
      if (token === null) throw new Error(`${shot.path} answered ${response.status} without an X-Debug-Token.`);
      await app.profiler?.writer.whenIdle();
      const shown = await page.goto(`${url}/_profiler/${token}?panel=${shot.panel}`);
      await page.screenshot({ path: path.join(OUT, shot.file), fullPage: true });
      // A Loupe without the panel still has the capture: the picture is then the profiler's 404 page.
      const note = shown?.status() === 200 ? '' : ` (status ${String(shown?.status())}: this Loupe has no "${shot.panel}" panel yet)`;
      process.stdout.write(`${shot.file}: ${shot.path} → /_profiler/${token}?panel=${shot.panel}${note}\n`);
    }
    for (const shot of PAGES) {
      await page.goto(`${url}${shot.path}`, { waitUntil: 'networkidle' });
      await page.screenshot({ path: path.join(OUT, shot.file), fullPage: shot.file !== 'error-page.png' });
      process.stdout.write(`${shot.file}: ${shot.path}\n`);
    }
  } finally {
    await browser.close();
    await app.close();
    if (config.redis !== null) await deleteKeys(config.redis.url, prefix);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`screenshot-panels: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
