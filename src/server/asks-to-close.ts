/** True when the request's Connection header lists the `close` option (a comma-separated, case-insensitive list: RFC 9110 §7.6.1). */
export function asksToClose(headers: Readonly<Record<string, string>>): boolean {
  const connection = headers['connection'];
  return connection !== undefined && connection.split(',').some((option) => option.trim().toLowerCase() === 'close');
}
