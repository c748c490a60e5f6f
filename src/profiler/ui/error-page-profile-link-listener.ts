import { defineListener } from '../../kernel/listener';
import { html } from '../../view/html';
import { profilePath } from '../profiler-paths';

const BODY_END = '</body>';

/**
 * A link to the request's own profile at the foot of an HTML error page (kernel.response, -128,
 * after the profiler gave the token). The page is rendered by the error sub-request before the
 * main request has a token, so the link is added to the finished page, as Symfony's
 * WebDebugToolbarListener adds the toolbar before `</body>`.
 */
export const errorPageProfileLinkListener = defineListener('ErrorPageProfileLinkListener', {
  'kernel.response': [
    -128,
    ({ collectedRequest, response, isMainRequest }) => {
      const token = response.headers.get('X-Debug-Token');
      // The error sub-request rendered the page (a listener's own error response has none).
      if (!isMainRequest || collectedRequest.subRequest === null || token === undefined || typeof response.body !== 'string') return;
      if (!/^text\/html\b/i.test(response.headers.get('Content-Type') ?? '')) return;
      const end = response.body.lastIndexOf(BODY_END);
      if (end === -1) return;
      const link = html`<footer class="container profile-link"><p>Profile of this request: <a href="${profilePath(token)}">${token}</a></p></footer>\n`;
      response.body = `${response.body.slice(0, end)}${link.toString()}${response.body.slice(end)}`;
    },
  ],
});
