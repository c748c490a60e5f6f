import { pageStyle } from '../view/base-style';

/**
 * The stylesheet of the error pages, inline so that a page loads nothing from elsewhere
 * (the server may be the thing that is broken): the base rules and the page's own.
 */
export const HTML_ERROR_PAGE_STYLE = pageStyle(`
.container { max-width: 1200px; margin: 0 auto; padding: 0 24px; }
.header { padding: 10px 0; }
.header h1 { letter-spacing: 0.02em; }
.summary { background: #b0413e; color: #fff; padding: 24px 0 28px; }
.summary h2 { margin: 0; font-size: 14px; font-weight: 400; opacity: 0.9; }
.summary .metadata { display: flex; justify-content: space-between; gap: 16px; flex-wrap: wrap; }
.summary .http small { font-size: 14px; opacity: 0.85; }
.summary h1.message { margin: 12px 0 0; font-size: 22px; font-weight: 500; word-break: break-word; }
.section-title { margin: 28px 0 10px; font-size: 18px; font-weight: 600; }
.error-index { color: #888; }
.error-code { margin-left: 8px; color: #888; font-size: 12px; }
.context { color: #666; word-break: break-word; }
details { margin-bottom: 32px; }
details pre { background: #fff; border: 1px solid #e2e2e2; padding: 12px; overflow: auto; white-space: pre-wrap; }
.public { max-width: 600px; margin: 60px auto; padding: 0 24px; }
.public h1 { font-size: 24px; }
.public h2 { font-size: 18px; font-weight: 400; }
`);
