import { LoupeResponse } from '../http/response';
import { type Controller } from '../kernel/controller';
import { KernelAttributes } from '../kernel/kernel-attributes';
import { errorStatus, flattenError } from './flatten-error';
import { renderHtmlError, renderPublicHtmlError } from './html-error-renderer';
import { publicProblem, renderJsonError } from './json-error-renderer';
import { preferredFormat } from './negotiate-format';
import { rawUrlEncode } from '../http/raw-url-encode';
import { truncateUtf8 } from '../http/truncate-utf8';
import { readSourceExcerpts } from '../view/read-source-excerpts';
import { applicationFrames } from '../view/render-source-excerpt';
import { createSourceFiles } from '../view/source-files';

export interface ErrorControllerOptions {
  /** Shows the message, class, trace and logs; without it nothing about the error leaves the server. */
  readonly debug: boolean;
  /** The application's root, whose source lines the debug page shows around its frames (the working directory by default). */
  readonly sourceRoot?: string;
}

/** Symfony sends at most 2000 bytes of the message in X-Debug-Exception. */
const DEBUG_MESSAGE_MAX_BYTES = 2000;

const HTML = 'text/html; charset=UTF-8';

/**
 * The controller of the error sub-request (Symfony's ErrorController with the serializer and
 * HTML renderers): renders the error being handled as JSON when the client prefers JSON,
 * else as HTML, with the error's status and headers. The debug HTML page shows the source
 * lines around the application's frames, read first: the one case answered asynchronously.
 */
export function createErrorController(options: ErrorControllerOptions): Controller {
  const { debug } = options;
  const sources = createSourceFiles(options.sourceRoot ?? process.cwd());
  return {
    name: 'error_controller',
    handle: ({ error, request, attributes }) => {
      // Without debug the page shows the status line alone: the error is not flattened (its message, class, causes).
      const flat = debug ? flattenError(error, { trace: true }) : null;
      const status = flat ?? errorStatus(error);
      const respond = (body: string, contentType: string): LoupeResponse => {
        const headers: Record<string, string> = { 'Content-Type': contentType, Vary: 'Accept' };
        if (flat !== null) {
          headers['X-Debug-Exception'] = rawUrlEncode(truncateUtf8(flat.message, DEBUG_MESSAGE_MAX_BYTES));
          const origin = flat.trace[0];
          if (origin !== undefined) headers['X-Debug-Exception-File'] = `${rawUrlEncode(origin.file)}:${origin.line}`;
        }
        // The error's own headers (Allow, WWW-Authenticate) win, as array_merge in Symfony's renderers.
        const response = new LoupeResponse(body, status.statusCode, headers);
        for (const [name, value] of Object.entries(status.headers)) response.headers.set(name, value);
        return response;
      };
      // Every format but JSON falls back to HTML, as the SerializerErrorRenderer does for formats it cannot encode.
      if (preferredFormat(request) === 'json') return respond(JSON.stringify(flat === null ? publicProblem(status) : renderJsonError(flat, { debug })), 'application/json');
      if (flat === null) return respond(renderPublicHtmlError(status), HTML);
      const logs = attributes.get(KernelAttributes.PARENT_LOGS) ?? [];
      const positions = applicationFrames([flat, ...flat.previous].map((entry) => entry.trace));
      return readSourceExcerpts(positions, sources).then((source) => respond(renderHtmlError(flat, { debug, logs, source }), HTML));
    },
  };
}
