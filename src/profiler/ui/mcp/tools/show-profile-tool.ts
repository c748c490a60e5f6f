import { type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { CliError } from '../../../../cli/cli-error';
import { PROFILE_SECTIONS, profileHeading, profileSections } from '../../cli/format/format-profile';
import { readStoredProfile, withStoredParentErrors } from '../../cli/read-stored-profile';
import { type McpToolContext } from '../mcp-tool-context';
import { READ_ONLY_ANNOTATIONS } from '../read-only-annotations';
import { toolAnswer } from '../tool-answer';

/** Columns of the waterfall's bars: what profiler:show draws when its output is no terminal. */
const BAR_COLUMNS = 100;

/**
 * The names the profile page's panels go by (`?panel=exception`, Symfony's `time` and `logger`),
 * and the collectors', for the section that shows the same: an agent that read a panel's URL asks so.
 */
const PANEL_NAMES: Readonly<Record<string, (typeof PROFILE_SECTIONS)[number]>> = {
  exception: 'errors',
  time: 'timeline',
  performance: 'timeline',
  logger: 'logs',
  events: 'listeners',
  router: 'routing',
  db: 'database',
  sql: 'database',
  http_client: 'http',
};

const INPUT = {
  token: z.string().min(1).describe('The profile\'s token (a response\'s X-Debug-Token), or "latest" for the newest main request'),
  panel: z
    .string()
    .optional()
    .describe(`Only this section: ${PROFILE_SECTIONS.join(', ')} (errors: the exceptions; database: the SQL queries; http: the outgoing HTTP calls), or an application panel's name; the profile page's names (exception, time, logger, db…) work too. Omitted: the whole profile`),
};

async function showProfile(token: string, panel: string | undefined, context: McpToolContext): Promise<string> {
  const profile = await context.withStorage(async ({ storage, prefix }) => withStoredParentErrors(storage, await readStoredProfile(storage, prefix, token)));
  const sections = profileSections(profile, BAR_COLUMNS, context.panels);
  const name = panel !== undefined && Object.hasOwn(PANEL_NAMES, panel) ? PANEL_NAMES[panel] : panel;
  const shown = name === undefined ? sections : sections.filter((section) => section.name === name);
  if (shown.length === 0) throw new CliError(1, `Profile ${profile.token} has no section "${panel ?? ''}": ask for one of ${sections.map((section) => section.name).join(', ')}.`);
  return `${[profileHeading(profile), ...shown.map((section) => section.text)].join('\n\n')}\n`;
}

/** `show_profile`: one stored profile as profiler:show prints it, or one of its sections. */
export function registerShowProfileTool(server: McpServer, context: McpToolContext): void {
  server.registerTool(
    'show_profile',
    {
      title: 'Show a profile',
      description:
        'Reads one stored request profile as text, as `loupe profiler:show` prints it: summary (method, URL, status, duration), phases, timeline, listeners, routing, errors with their stack frames, logs, ' +
        'the SQL queries (N+1 shapes first, each query with its time, marks, file:line origin and the frames that called it), outgoing HTTP calls, Redis commands, the request and both sets of headers. ' +
        'Use `panel` to read one section only, e.g. "database" for the queries or "errors" for the exception; the whole profile of a busy request may be cut to the answer\'s bound, one section rarely is.',
      inputSchema: INPUT,
      annotations: READ_ONLY_ANNOTATIONS,
    },
    ({ token, panel }) => toolAnswer(() => showProfile(token, panel, context)),
  );
}
