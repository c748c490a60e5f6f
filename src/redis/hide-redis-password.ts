/**
 * `url` with the password of its `user:password@` part replaced by `***`, for every message that
 * names where Redis is (errors at start, the CLI, the status page, the log): any scheme, a
 * cluster's `host:port,host:port` list included (the last `@` ends the credentials, as ioredis
 * reads them). A user name alone is kept: ioredis takes it as a user name, not a password.
 */
export function hideRedisPassword(url: string): string {
  const at = url.lastIndexOf('@');
  if (at === -1) return url;
  const start = /^[a-z][a-z0-9+.-]*:\/\//i.exec(url)?.[0].length ?? 0;
  const colon = url.indexOf(':', start);
  if (colon === -1 || colon > at) return url;
  return `${url.slice(0, colon)}:***${url.slice(at)}`;
}
