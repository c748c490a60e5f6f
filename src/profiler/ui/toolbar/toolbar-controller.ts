import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { LoupeResponse } from '../../../http/response';
import { type Controller } from '../../../kernel/controller';
import { type SafeHtml } from '../../../view/html';
import { loadProfile, type ProfileLookup, type ProfileSource } from '../panel/load-profile';
import { renderToolbarContent, renderToolbarMessage } from './toolbar-content';
import { type ToolbarItem } from './toolbar-item';

/** How long `/_wdt/{token}` waits for a profile that is not stored yet (the writer stores it after the response). */
export const TOOLBAR_WAIT_MS = 2_000;

/** A fragment for the injected script; opened on its own it runs nothing and loads nothing. */
const HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/html; charset=UTF-8',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
};

/** Looks the profile up until it is there, or something other than "not stored yet" is known, or `timeoutMs` passed. */
async function waitForProfile(source: ProfileSource, token: string, timeoutMs: number): Promise<ProfileLookup> {
  const deadline = performance.now() + timeoutMs;
  for (let delay = 5; ; delay = Math.min(delay * 2, 100)) {
    const lookup = await loadProfile(source, token);
    const left = deadline - performance.now();
    if (lookup.kind !== 'missing' || left <= 0) return lookup;
    await sleep(Math.min(delay, left));
  }
}

function fragment(content: SafeHtml, status: number): LoupeResponse {
  return new LoupeResponse(content.toString(), status, HEADERS);
}

/**
 * `/_wdt/{token}` (WebProfilerBundle's ProfilerController::toolbarAction): the toolbar's content
 * for one profile. The page asks for it as soon as it loads, usually before the profile is
 * stored, so this waits up to `timeoutMs` for it; a 404 after that tells the script to ask again,
 * a 410 that it never will be there (dropped).
 */
/** `items`: the toolbar items of plugins and of the application, after Loupe's own. */
export function createToolbarController(source: ProfileSource, items: readonly ToolbarItem[] = [], timeoutMs = TOOLBAR_WAIT_MS): Controller {
  return {
    name: 'profiler.toolbar',
    handle: async ({ params }) => {
      const lookup = await waitForProfile(source, params['token'] ?? '', timeoutMs);
      switch (lookup.kind) {
        case 'found':
          return fragment(renderToolbarContent(lookup.profile, items), 200);
        case 'missing':
          return fragment(renderToolbarMessage(lookup.token, 'The profile is not stored yet.'), 404);
        case 'dropped':
          return fragment(renderToolbarMessage(lookup.token, `The profile was dropped: ${lookup.reason}`), 410);
        case 'unreadable':
          return fragment(renderToolbarMessage(lookup.token, 'The profile is unreadable.'), 500);
        case 'none':
          return fragment(renderToolbarMessage('latest', 'There are no profiles.'), 410);
      }
    },
  };
}
