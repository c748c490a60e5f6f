import { type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { escapeControlKeepingLines } from '../../../log/escape-control';
import { LoupeError } from '../../../errors/loupe-error';
import { boundAnswer } from './bound-answer';

/** What a tool says when it fails: the message (a LoupeError's says what to do), and its cause. */
function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error instanceof LoupeError && error.cause instanceof Error ? `\nCause: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}

function textResult(text: string, isError: boolean): CallToolResult {
  // Stored values (a URL, a header, a message) reach the agent as text, never as control characters.
  return { content: [{ type: 'text', text: boundAnswer(escapeControlKeepingLines(text)) }], ...(isError ? { isError: true } : {}) };
}

/**
 * The result of a tool call: the text `run` answers, bounded (see boundAnswer), or, when it
 * throws (an unknown token, Redis down, an invalid argument), a tool error with the message, so
 * that the agent reads why and the server goes on serving.
 */
export async function toolAnswer(run: () => Promise<string>): Promise<CallToolResult> {
  try {
    return textResult(await run(), false);
  } catch (error) {
    return textResult(errorText(error), true);
  }
}
