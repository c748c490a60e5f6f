import { type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { SEARCH_ORDERS, SEARCH_SORTS, type ProfileCriteria } from '../../../storage/profile-storage';
import { formatSummaryTable } from '../../cli/format/format-summary-table';
import { pageNote, statusOption, windowCriteria } from '../../cli/search-options';
import { type McpToolContext } from '../mcp-tool-context';
import { READ_ONLY_ANNOTATIONS } from '../read-only-annotations';
import { toolAnswer } from '../tool-answer';
import { WINDOW_INPUT } from './window-input';

/** Rows per page at most: a page of this many stays well within an answer's bound. */
const MAX_LIMIT = 100;
const DEFAULT_LIMIT = 20;

const INPUT = {
  method: z.string().optional().describe('Only this HTTP method: GET, POST…'),
  url: z.string().optional().describe('Only URLs containing this text, e.g. "/posts"'),
  status: z.union([z.string(), z.number().int()]).optional().describe('Only this status code (404; 0: the client went away) or class ("5xx")'),
  ...WINDOW_INPUT,
  minQueries: z.number().int().min(1).optional().describe('Only requests that ran at least this many SQL queries'),
  nPlusOne: z.boolean().optional().describe('Only requests that ran a query in a loop (N+1)'),
  subRequests: z.boolean().optional().describe('List the error sub-requests too (left out by default)'),
  sort: z.enum(SEARCH_SORTS).optional().describe('"time" (default) or "duration"'),
  order: z.enum(SEARCH_ORDERS).optional().describe('"desc" (default: newest or slowest first) or "asc"'),
  limit: z.number().int().min(1).max(MAX_LIMIT).optional().describe(`Rows per page, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT})`),
  page: z.number().int().min(1).optional().describe('Which page of `limit` rows (default 1)'),
};

type SearchInput = { readonly [K in keyof typeof INPUT]?: z.infer<(typeof INPUT)[K]> };

/** The search criteria of the tool's input, as profiler:list builds them from its flags. */
function criteriaOf(input: SearchInput, limit: number, page: number): ProfileCriteria {
  return {
    limit,
    ...(page > 1 ? { offset: (page - 1) * limit } : {}),
    ...(input.sort === undefined ? {} : { sort: input.sort }),
    ...(input.order === undefined ? {} : { order: input.order }),
    ...statusOption(input.status === undefined ? undefined : String(input.status)),
    ...(input.method === undefined ? {} : { method: input.method.toUpperCase() }),
    ...(input.url === undefined ? {} : { url: input.url }),
    ...windowCriteria(input.since, input.route),
    ...(input.minQueries === undefined ? {} : { minQueries: input.minQueries }),
    ...(input.nPlusOne === true ? { nPlusOne: true } : {}),
    ...(input.subRequests === true ? {} : { mainRequestsOnly: true }),
    hideFavicon: true,
  };
}

async function searchProfiles(input: SearchInput, context: McpToolContext): Promise<string> {
  const limit = input.limit ?? DEFAULT_LIMIT;
  const page = input.page ?? 1;
  const criteria = criteriaOf(input, limit, page);
  const { result, prefix } = await context.withStorage(async ({ storage, prefix: searched }) => ({ result: await storage.search(criteria), prefix: searched }));
  const note = pageNote(result, page, limit, (next) => `page ${next}`);
  if (result.rows.length === 0) return `No profiles found under the prefix "${prefix}".\n${result.total > 0 ? note : ''}`;
  return `${formatSummaryTable(result.rows)}\n${note}`;
}

/** `search_profiles`: the stored profiles, newest first, with profiler:list's filters. */
export function registerSearchProfilesTool(server: McpServer, context: McpToolContext): void {
  server.registerTool(
    'search_profiles',
    {
      title: 'Search profiles',
      description:
        'Lists stored request profiles, newest first, as a table: token, status, method, URL, client IP, time, duration, SQL query count ("N+1" when a query ran in a loop) and parent. ' +
        'Use it to find the token of a request (the X-Debug-Token header of its response) before reading it with show_profile; filter by method, URL text, status, route, time window, query count or N+1. ' +
        "Main requests only unless subRequests; the browser's /favicon.ico requests are left out. Ends with which rows of how many matched.",
      inputSchema: INPUT,
      annotations: READ_ONLY_ANNOTATIONS,
    },
    (input) => toolAnswer(() => searchProfiles(input, context)),
  );
}
