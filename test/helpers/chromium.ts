import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium; Playwright never downloads a browser of its own here. */
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'];

/** Screenshots for people to look at after a run (git-ignored); not compared by the tests. */
export const ARTIFACTS = path.resolve(__dirname, '..', '..', 'test-artifacts');

/** A headless Chromium, or why there is none (how to install it), for the browser tests to fail with. */
export async function launchChromium(): Promise<{ browser?: Browser; launchError?: string }> {
  if (!existsSync(CHROMIUM)) return { launchError: `Chromium is not installed at ${CHROMIUM}: run \`apt-get update && apt-get install -y chromium\`.` };
  try {
    return { browser: await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS }) };
  } catch (error) {
    return { launchError: `Chromium at ${CHROMIUM} did not start (reinstall it with \`apt-get install -y chromium\`): ${error instanceof Error ? error.message : String(error)}` };
  }
}
