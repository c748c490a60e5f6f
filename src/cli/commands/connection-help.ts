/** The flags every command takes, as `help` shows them. */
export const CONNECTION_HELP = [
  '  --redis-url URL    Redis to read, or a cluster: redis+cluster://host:port,host:port',
  '                     (default: REDIS_URL or REDIS_CLUSTER_NODES, else redis://127.0.0.1:6379)',
  '  --prefix PREFIX    key prefix of the server (default: REDIS_PREFIX, else loupe:)',
  '  -h, --help         show this help',
].join('\n');
