import { type ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';

/** What every tool of Loupe's MCP server is: it reads stored profiles (and EXPLAINs a query), never writes, and reaches nothing outside them. */
export const READ_ONLY_ANNOTATIONS: ToolAnnotations = Object.freeze({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
