import { trustedHtml } from '../view/html';

/**
 * The stylesheet of the error pages, inline so that a page loads nothing from elsewhere
 * (the server may be the thing that is broken).
 */
export const HTML_ERROR_PAGE_STYLE = trustedHtml(`
* { box-sizing: border-box; }
body { margin: 0; background: #f3f4f6; color: #222; font: 14px/1.5 -apple-system, BlinkMacSystemFont, "Segoe UI", Helvetica, Arial, sans-serif; }
.container { max-width: 1200px; margin: 0 auto; padding: 0 24px; }
code, pre, .loc, .fn { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; }
.header { background: #222; color: #eee; padding: 10px 0; }
.header h1 { margin: 0; font-size: 16px; font-weight: 600; letter-spacing: 0.02em; }
.summary { background: #b0413e; color: #fff; padding: 24px 0 28px; }
.summary h2 { margin: 0; font-size: 14px; font-weight: 400; opacity: 0.9; }
.summary .metadata { display: flex; justify-content: space-between; gap: 16px; flex-wrap: wrap; }
.summary .http small { font-size: 14px; opacity: 0.85; }
.summary h1.message { margin: 12px 0 0; font-size: 22px; font-weight: 500; word-break: break-word; }
.section-title { margin: 28px 0 10px; font-size: 18px; font-weight: 600; }
.badge { display: inline-block; min-width: 20px; padding: 0 6px; border-radius: 10px; background: #ddd; font-size: 12px; text-align: center; }
.error-block { background: #fff; border: 1px solid #e2e2e2; border-radius: 4px; margin-bottom: 16px; }
.error-head { padding: 10px 14px; border-bottom: 1px solid #eee; background: #fafafa; }
.error-index { color: #888; }
.error-class { font-weight: 600; }
.error-code { margin-left: 8px; color: #888; font-size: 12px; }
.error-message { margin: 0; padding: 8px 14px; word-break: break-word; }
.frames { margin: 0; padding: 0 14px 10px 40px; }
.frame { padding: 3px 0; border-top: 1px solid #f3f3f3; }
.frame.vendor { color: #999; }
.fn { font-weight: 600; }
.loc { color: #555; word-break: break-all; }
.vendor .loc { color: #aaa; }
table.logs { width: 100%; border-collapse: collapse; background: #fff; border: 1px solid #e2e2e2; }
table.logs th, table.logs td { padding: 6px 10px; border-bottom: 1px solid #eee; text-align: left; vertical-align: top; }
table.logs .level-error, table.logs .level-critical { color: #b0413e; font-weight: 600; }
table.logs .level-warning { color: #a46a1f; font-weight: 600; }
.context { color: #666; word-break: break-word; }
details { margin-bottom: 32px; }
details pre { background: #fff; border: 1px solid #e2e2e2; padding: 12px; overflow: auto; white-space: pre-wrap; }
.empty { color: #888; }
.public { max-width: 600px; margin: 60px auto; padding: 0 24px; }
.public h1 { font-size: 24px; }
.public h2 { font-size: 18px; font-weight: 400; }
`);
