import { trustedHtml, type SafeHtml } from './html';

/**
 * The rules every page Loupe renders shares (error pages, profiler pages): the reset, the
 * text, monospace, links, tables, log levels, the badge, the error block, the stack trace
 * drawn by `renderStackTrace` and the source lines of `renderSourceExcerpt`. A page adds only what is its own, so no rule is written twice.
 */
export const BASE_STYLE = `
* { box-sizing: border-box; }
body { margin: 0; background: #f3f4f6; color: #222; font: 14px/1.5 -apple-system, BlinkMacSystemFont, "Segoe UI", Helvetica, Arial, sans-serif; }
a { color: #1c5fa8; }
code, pre, .mono, .fn, .loc { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; }
.header { background: #222; color: #eee; }
.header h1 { margin: 0; font-size: 16px; font-weight: 600; }
.empty { color: #888; }
.badge { display: inline-block; min-width: 20px; padding: 0 6px; border-radius: 10px; background: #ddd; color: #222; font-size: 12px; text-align: center; }
table { width: 100%; border-collapse: collapse; background: #fff; border: 1px solid #e2e2e2; margin-bottom: 12px; }
th, td { padding: 6px 10px; border-bottom: 1px solid #eee; text-align: left; vertical-align: top; overflow-wrap: break-word; }
th { background: #fafafa; font-weight: 600; }
.level-error, .level-critical { color: #b0413e; font-weight: 600; }
.level-warning { color: #a46a1f; font-weight: 600; }
.error-block { background: #fff; border: 1px solid #e2e2e2; border-radius: 4px; margin-bottom: 16px; }
.error-head { padding: 10px 14px; background: #fafafa; border-bottom: 1px solid #eee; }
.error-class { font-weight: 600; }
.error-message { margin: 0; padding: 8px 14px; word-break: break-word; }
.frames { margin: 0; padding: 0 14px 10px 40px; }
.frame { padding: 3px 0; border-top: 1px solid #f3f3f3; }
.frame.vendor { color: #999; }
.fn { font-weight: 600; }
.loc { color: #555; word-break: break-all; }
.vendor .loc { color: #aaa; }
.source { background: #fafafa; border: 1px solid #e2e2e2; margin: 4px 0 8px 16px; padding: 4px 0; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; overflow-x: auto; }
.source .line { display: block; padding: 0 8px; white-space: pre; }
.source .line.current { background: #ffe9a8; }
.source .no { display: inline-block; width: 44px; color: #999; user-select: none; }
`;

/**
 * A page's stylesheet: the base rules, then `rules`, the page's own. Both are constants of this
 * code base, which is what makes them trusted markup; never pass anything a request carried.
 */
export function pageStyle(rules: string): SafeHtml {
  return trustedHtml(BASE_STYLE + rules);
}
