import { type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { failedCalls } from '../../../budget/failed-calls';
import { EXCEPTION_COLLECTOR, type ExceptionCollectorData } from '../../../collect/collectors/exception-collector';
import { collectorData, type Profile } from '../../../profile';
import { formatErrors } from '../../cli/format/format-errors';
import { checkScope } from '../../cli/format/format-check';
import { windowCriteria } from '../../cli/search-options';
import { type McpToolContext } from '../mcp-tool-context';
import { readRecentProfiles, profileLine } from '../recent-profiles';
import { READ_ONLY_ANNOTATIONS } from '../read-only-annotations';
import { toolAnswer } from '../tool-answer';
import { WINDOW_INPUT } from './window-input';

/** Newest requests read at most to find the errors: a bound on what one call costs Redis. */
const SCANNED = 200;
const MAX_PROFILES = 50;
const DEFAULT_PROFILES = 10;

const INPUT = {
  ...WINDOW_INPUT,
  clientErrors: z.boolean().optional().describe('true: the requests answered 4xx with an error (a 404, a 403…) count too'),
  limit: z.number().int().min(1).max(MAX_PROFILES).optional().describe(`Profiles with errors listed at most, 1 to ${MAX_PROFILES} (default ${DEFAULT_PROFILES})`),
};

type ErrorsInput = { readonly [K in keyof typeof INPUT]?: z.infer<(typeof INPUT)[K]> };

function errorsOf(profile: Profile): ExceptionCollectorData['errors'] {
  const errors = collectorData<ExceptionCollectorData>(profile, EXCEPTION_COLLECTOR)?.errors;
  return Array.isArray(errors) ? errors : [];
}

/** A server error, a call of the application's that failed, or with `clientErrors` a 4xx answered with an error. */
function hasErrors(profile: Profile, clientErrors: boolean): boolean {
  if (profile.statusCode >= 500 || failedCalls(profile).length > 0) return true;
  return clientErrors && profile.statusCode >= 400 && errorsOf(profile).length > 0;
}

/** The request's line, its errors with their chain and first frames, then the calls that failed with their file:line. */
function errorLines(profile: Profile): string[] {
  const calls = failedCalls(profile).map((call) => `  failed ${call.what}${call.origin === '' ? '' : `  at ${call.origin}`}`);
  return [profileLine(profile), ...formatErrors(errorsOf(profile)).map((line) => `  ${line}`), ...calls, ''];
}

async function recentErrors(input: ErrorsInput, context: McpToolContext): Promise<string> {
  const criteria = windowCriteria(input.since, input.route);
  const clientErrors = input.clientErrors === true;
  const { kept, read } = await context.withStorage(({ storage }) => readRecentProfiles(storage, criteria, SCANNED, input.limit ?? DEFAULT_PROFILES, (profile) => hasErrors(profile, clientErrors)));
  const scope = `the ${read} newest ${read === 1 ? 'request' : 'requests'} read${checkScope(input.route, input.since)}`;
  if (kept.length === 0) return `No error in ${scope}.\n`;
  return `${kept.length} of ${scope} had errors, newest first:\n\n${kept.flatMap(errorLines).join('\n')}`;
}

/** `recent_errors`: the newest requests that failed, with their error messages and where they came from. */
export function registerRecentErrorsTool(server: McpServer, context: McpToolContext): void {
  server.registerTool(
    'recent_errors',
    {
      title: 'Recent errors',
      description:
        `Lists the newest requests (of the ${SCANNED} newest) that answered 5xx or whose SQL query, HTTP call or Redis command failed (an SQL error, an upstream 5xx, a Redis error reply): ` +
        'for each, its token, request, status and route, every exception with its class, message, chain of causes and first stack frames, and each failed call with its file:line. ' +
        'Use it to find what broke after running the application or its tests; clientErrors adds the 4xx answered with an error. Read one in full with show_profile (panel "errors").',
      inputSchema: INPUT,
      annotations: READ_ONLY_ANNOTATIONS,
    },
    (input) => toolAnswer(() => recentErrors(input, context)),
  );
}
