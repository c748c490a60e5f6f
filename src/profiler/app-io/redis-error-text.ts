/** A quoted run in a Redis error (`'…'` or `"…"`): how Redis quotes what it repeats of a command. */
const QUOTED = /'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"/g;

/**
 * A Redis error's text with what it quotes hidden when the command's arguments hid a value (`?`,
 * see redisArgs): Redis repeats arguments in some errors (`ERR unknown command 'x', with args
 * beginning with: 'S3cr3t'`, a script's error), which would show what the arguments hid.
 */
export function redisErrorText(error: string | null, args: readonly string[]): string | null {
  if (error === null || !args.includes('?')) return error;
  return error.replace(QUOTED, "'?'");
}
