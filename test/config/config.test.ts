import { availableParallelism } from 'node:os';
import test, { type ExecutionContext } from 'ava';
import { readConfig } from '../../src/config/config';
import { LoupeError } from '../../src/errors/loupe-error';
import { readProfilerConfig } from '../../src/profiler/read-profiler-config';
import { readRedisConfig } from '../../src/redis/redis-config';

const PROD_SECRET = { APP_ENV: 'prod', APP_SECRET: 'a-secret-of-our-own' };

/** Reads the application's configuration, then the profiler's own part from the same environment, as the profiler plugin does. */
function readBoth(env: Readonly<Record<string, string>>): void {
  readConfig(env);
  readProfilerConfig(env);
}

function throwsInvalid(t: ExecutionContext, env: Readonly<Record<string, string>>, message: string): void {
  const error = t.throws(() => readBoth(env), { instanceOf: LoupeError, message });
  t.is(error?.code, 'LOUPE_ERR_CONFIG_INVALID');
}

test('an empty environment gives the defaults, in dev with debug on', (t) => {
  t.deepEqual(readConfig({}), {
    appEnv: 'dev',
    debug: true,
    profiler: true,
    serverTiming: true,
    requestContext: true,
    server: { host: '127.0.0.1', port: 8000, maxBodySize: 1024 * 1024, workers: 1 },
    redis: { url: 'redis://127.0.0.1:6379', prefix: 'loupe:', cluster: null, profileGroups: 1, commandTimeoutMs: 1000, connectTimeoutMs: 3000 },
    locale: { enabledLocales: ['en', 'fr', 'de'], defaultLocale: 'en' },
    session: { lifetime: 1440 * 60, cookieName: 'LOUPESESSID' },
    security: { secret: 'loupe-dev-secret-change-me', rememberMeLifetime: 7 * 86400, rememberMeCookieName: 'LOUPE_REMEMBERME' },
    log: { level: 'info', format: 'auto', redact: [] },
    env: {},
  });
  t.deepEqual(readProfilerConfig({}), { lifetime: 86400, maxProfiles: 50_000, maxProfileBytes: 65_536, maxBytes: 268_435_456, allowedIps: ['127.0.0.0/8', '::1/128'], allowedHosts: [], redact: [], cookieAllowList: [], sample: 1, slowMs: 500, capture: ['http', 'redis', 'mysql2', 'pg', 'postgres'], captureOff: [], maxEntries: 500, slowCallMs: 100, ide: null, sourceRoot: null, explain: { databases: [], timeoutMs: 5_000 } });
});

test('the profiler reads its own part from the environment the application\'s was read from; the terminal log redacts PROFILER_REDACT\'s names', (t) => {
  const config = readConfig({ PROFILER_SAMPLE: '0.5', PROFILER_REDACT: 'ssn' });
  t.is(readProfilerConfig(config.env).sample, 0.5);
  t.deepEqual(config.log.redact, ['ssn']);
  t.is(config.profiler, true, 'the kernel knows only whether the profiler is on, not its settings');
});

test('what the profiler captures of the application, and its limits, come from PROFILER_CAPTURE, PROFILER_MAX_ENTRIES, PROFILER_SLOW_CALL_MS and PROFILER_IDE', (t) => {
  const config = readProfilerConfig({ PROFILER_CAPTURE: 'http, pg', PROFILER_MAX_ENTRIES: '20', PROFILER_SLOW_CALL_MS: '5', PROFILER_IDE: 'vscode://file/%f:%l' });
  t.deepEqual(config.capture, ['http', 'pg']);
  t.is(config.maxEntries, 20);
  t.is(config.slowCallMs, 5);
  t.is(config.ide, 'vscode://file/%f:%l');
  t.deepEqual(readProfilerConfig({ PROFILER_CAPTURE: 'none' }).capture, []);
  t.throws(() => readProfilerConfig({ PROFILER_CAPTURE: 'http,mongo' }), { message: /PROFILER_CAPTURE.*mongo.*http, redis, mysql2, pg, postgres.*or none/s });
  t.throws(() => readProfilerConfig({ PROFILER_IDE: 'vscode://file' }), { message: /PROFILER_IDE/ });
  t.false(readConfig({ APP_ENV: 'prod', APP_SECRET: 's' }).requestContext);
  t.true(readConfig({ APP_ENV: 'prod', APP_SECRET: 's', REQUEST_CONTEXT: '1' }).requestContext);
});

test('EXPLAIN connects to one database per dialect of PROFILER_EXPLAIN_DATABASE_URL, and an invalid one is refused without its password', (t) => {
  const config = readProfilerConfig({ PROFILER_EXPLAIN_DATABASE_URL: 'postgres://app:s3cret@127.0.0.1:5432/app, mariadb://root@127.0.0.1:3306/app', PROFILER_EXPLAIN_TIMEOUT_MS: '250' });
  t.deepEqual(config.explain, {
    databases: [
      { dialect: 'pg', url: 'postgres://app:s3cret@127.0.0.1:5432/app' },
      { dialect: 'mysql', url: 'mariadb://root@127.0.0.1:3306/app' },
    ],
    timeoutMs: 250,
  });
  const twice = t.throws(() => readProfilerConfig({ PROFILER_EXPLAIN_DATABASE_URL: 'postgres://a@h/x,postgresql://b:pw@h/y' }));
  t.regex(twice?.message ?? '', /PROFILER_EXPLAIN_DATABASE_URL.*one URL per kind of database/);
  const scheme = t.throws(() => readProfilerConfig({ PROFILER_EXPLAIN_DATABASE_URL: 'mongodb://u:hunter22@h/db' }));
  t.regex(scheme?.message ?? '', /postgres, postgresql, mysql, mariadb/);
  t.notRegex(scheme?.message ?? '', /hunter22/);
  t.throws(() => readProfilerConfig({ PROFILER_EXPLAIN_TIMEOUT_MS: '0' }), { message: /PROFILER_EXPLAIN_TIMEOUT_MS/ });
});

test('LOG_LEVEL takes pino\'s levels and silent; LOG_FORMAT json or pretty', (t) => {
  for (const level of ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const) t.is(readConfig({ LOG_LEVEL: level }).log.level, level);
  t.is(readConfig({ LOG_FORMAT: 'json' }).log.format, 'json');
  t.is(readConfig({ LOG_FORMAT: 'pretty' }).log.format, 'pretty');
  t.is(readConfig({ LOG_FORMAT: '' }).log.format, 'auto');
  throwsInvalid(t, { LOG_LEVEL: 'warning' }, 'Invalid LOG_LEVEL "warning": expected one of fatal, error, warn, info, debug, trace, silent.');
  throwsInvalid(t, { LOG_LEVEL: 'INFO' }, 'Invalid LOG_LEVEL "INFO": expected one of fatal, error, warn, info, debug, trace, silent.');
  throwsInvalid(t, { LOG_FORMAT: 'text' }, 'Invalid LOG_FORMAT "text": expected one of json, pretty.');
});

test('Server-Timing follows debug unless SERVER_TIMING says otherwise', (t) => {
  t.false(readConfig(PROD_SECRET).serverTiming, 'off in prod');
  t.true(readConfig({ ...PROD_SECRET, SERVER_TIMING: '1' }).serverTiming, 'opt-in in prod');
  t.false(readConfig({ SERVER_TIMING: 'off' }).serverTiming, 'opt-out with debug');
  throwsInvalid(t, { SERVER_TIMING: 'maybe' }, 'Invalid SERVER_TIMING "maybe": expected 0 or 1.');
});

test('values from the environment are used', (t) => {
  const env = {
    HOST: '0.0.0.0',
    PORT: '8080',
    REDIS_URL: 'rediss://cache.internal:6380/2',
    REDIS_PREFIX: 'test-1:',
    MAX_BODY_SIZE: '2048',
    APP_LOCALES: ' fr , de ,,',
    APP_SECRET: 'abc',
    PROFILER_MAX_PROFILES: '10000000',
    PROFILER_MAX_PROFILE_BYTES: '8192',
    PROFILER_MAX_BYTES: '1048576',
    PROFILER_ALLOWED_IPS: '10.0.0.0/8, 192.168.1.1',
  };
  const config = readConfig(env);
  const profiler = readProfilerConfig(config.env);
  t.is(config.server.host, '0.0.0.0');
  t.is(config.server.port, 8080);
  t.like(config.redis, { url: 'rediss://cache.internal:6380/2', prefix: 'test-1:' });
  t.is(config.server.maxBodySize, 2048);
  t.deepEqual(config.locale.enabledLocales, ['fr', 'de']);
  t.is(config.locale.defaultLocale, 'fr');
  t.is(config.security.secret, 'abc');
  t.is(profiler.maxProfiles, 10_000_000);
  t.is(profiler.maxProfileBytes, 8192);
  t.is(profiler.maxBytes, 1_048_576);
  t.deepEqual(profiler.allowedIps, ['10.0.0.0/8', '192.168.1.1']);
});

test('byte budgets below their minimum, or a total below one profile, are refused', (t) => {
  throwsInvalid(t, { PROFILER_MAX_PROFILE_BYTES: '100' }, 'Invalid PROFILER_MAX_PROFILE_BYTES "100": expected an integer from 4096 to 536870912.');
  throwsInvalid(t, { PROFILER_MAX_BYTES: '64k' }, 'Invalid PROFILER_MAX_BYTES "64k": expected an integer from 1048576 to 9007199254740991.');
  throwsInvalid(t, { PROFILER_MAX_PROFILE_BYTES: '2097152', PROFILER_MAX_BYTES: '1048576' }, 'Invalid PROFILER_MAX_BYTES "1048576": expected at least PROFILER_MAX_PROFILE_BYTES (2097152).');
});

test('an empty number falls back to its default', (t) => {
  t.is(readConfig({ PORT: '' }).server.port, 8000);
  t.is(readConfig({ PORT: '0' }).server.port, 0);
});

test('prod turns debug off; test keeps it on', (t) => {
  const prod = readConfig(PROD_SECRET);
  t.is(prod.appEnv, 'prod');
  t.false(prod.debug);
  const testEnv = readConfig({ APP_ENV: 'test' });
  t.is(testEnv.appEnv, 'test');
  t.true(testEnv.debug);
});

test('APP_DEBUG accepts 1/0, true/false, on/off and yes/no in any case', (t) => {
  for (const on of ['1', 'true', 'ON', 'Yes']) t.true(readConfig({ ...PROD_SECRET, APP_DEBUG: on }).debug, on);
  for (const off of ['0', 'FALSE', 'off', 'no']) t.false(readConfig({ APP_DEBUG: off }).debug, off);
  t.true(readConfig({ APP_DEBUG: '' }).debug);
  t.false(readConfig({ ...PROD_SECRET, APP_DEBUG: '' }).debug);
});

test('an unreadable APP_DEBUG is refused', (t) => {
  throwsInvalid(t, { APP_DEBUG: 'maybe' }, 'Invalid APP_DEBUG "maybe": expected 0 or 1.');
});

test('a PORT that is not an integer from 0 to 65535 is refused', (t) => {
  for (const port of ['65536', '-1', '80.5', 'http']) {
    throwsInvalid(t, { PORT: port }, `Invalid PORT "${port}": expected an integer from 0 to 65535.`);
  }
  t.is(readConfig({ PORT: '65535' }).server.port, 65535);
});

test('WORKERS is a count from 1 to 256, or auto for one per core', (t) => {
  t.is(readConfig({ WORKERS: '4' }).server.workers, 4);
  t.is(readConfig({ WORKERS: 'auto' }).server.workers, availableParallelism());
  t.is(readConfig({ WORKERS: ' Auto ' }).server.workers, availableParallelism());
  for (const workers of ['0', '257', '1.5', 'all']) {
    throwsInvalid(t, { WORKERS: workers }, `Invalid WORKERS "${workers}": expected an integer from 1 to 256, or auto.`);
  }
});

test('an APP_ENV other than dev, prod or test is refused', (t) => {
  throwsInvalid(t, { APP_ENV: 'staging' }, 'Invalid APP_ENV "staging": expected dev, prod or test.');
  throwsInvalid(t, { APP_ENV: 'Prod' }, 'Invalid APP_ENV "Prod": expected dev, prod or test.');
});

test('APP_DEFAULT_LOCALE must be one of APP_LOCALES', (t) => {
  throwsInvalid(t, { APP_DEFAULT_LOCALE: 'es' }, 'Invalid APP_DEFAULT_LOCALE "es": expected one of en, fr, de.');
  throwsInvalid(t, { APP_LOCALES: 'fr,de', APP_DEFAULT_LOCALE: 'en' }, 'Invalid APP_DEFAULT_LOCALE "en": expected one of fr, de.');
  t.is(readConfig({ APP_DEFAULT_LOCALE: 'de' }).locale.defaultLocale, 'de');
});

test('REDIS_URL must be a redis://, rediss:// or redis+cluster:// URL', (t) => {
  throwsInvalid(t, { REDIS_URL: 'http://127.0.0.1:6379' }, 'Invalid REDIS_URL "http://127.0.0.1:6379": expected a redis://, rediss:// or redis+cluster:// URL.');
  throwsInvalid(t, { REDIS_URL: '127.0.0.1:6379' }, 'Invalid REDIS_URL "127.0.0.1:6379": expected a redis://, rediss:// or redis+cluster:// URL.');
});

test('prod refuses the default secret, whether implied or written out', (t) => {
  const message = 'Invalid APP_SECRET "(default)": expected a secret of your own in prod.';
  throwsInvalid(t, { APP_ENV: 'prod' }, message);
  throwsInvalid(t, { APP_ENV: 'prod', APP_SECRET: 'loupe-dev-secret-change-me' }, message);
});

test('PROFILER_MAX_PROFILES above 10,000,000 is refused', (t) => {
  throwsInvalid(t, { PROFILER_MAX_PROFILES: '10000001' }, 'Invalid PROFILER_MAX_PROFILES "10000001": expected an integer from 1 to 10000000.');
  throwsInvalid(t, { PROFILER_MAX_PROFILES: '0' }, 'Invalid PROFILER_MAX_PROFILES "0": expected an integer from 1 to 10000000.');
});

test('PROFILER_REDACT and PROFILER_COOKIE_ALLOWLIST are comma-separated lists', (t) => {
  const profiler = readProfilerConfig({ PROFILER_REDACT: ' ssn, card-number ,*iban*,', PROFILER_COOKIE_ALLOWLIST: 'theme, lang' });
  t.deepEqual(profiler.redact, ['ssn', 'card-number', '*iban*']);
  t.deepEqual(profiler.cookieAllowList, ['theme', 'lang']);
  t.true(Object.isFrozen(profiler.redact));
  t.true(Object.isFrozen(profiler.cookieAllowList));
});

test('a PROFILER_REDACT name that is not a name pattern is refused', (t) => {
  const expected = 'letters and digits, parts joined by "-", "_" or ".", with an optional "*" at either end';
  throwsInvalid(t, { PROFILER_REDACT: 'ssn,card number' }, `Invalid PROFILER_REDACT "card number": expected ${expected}.`);
  throwsInvalid(t, { PROFILER_REDACT: 'to*ken' }, `Invalid PROFILER_REDACT "to*ken": expected ${expected}.`);
  throwsInvalid(t, { PROFILER_REDACT: '*' }, `Invalid PROFILER_REDACT "*": expected ${expected}.`);
});

test('a configuration error is a LoupeError with status 500', (t) => {
  const error = t.throws(() => readConfig({ PORT: 'x' }), { instanceOf: LoupeError });
  t.is(error?.statusCode, 500);
});

test('the configuration and its lists are frozen', (t) => {
  const config = readConfig({});
  t.true(Object.isFrozen(config));
  const profiler = readProfilerConfig(config.env);
  for (const part of [config.server, config.redis, config.locale, config.session, config.security, config.log, config.env, profiler]) t.true(Object.isFrozen(part));
  t.true(Object.isFrozen(config.locale.enabledLocales));
  t.true(Object.isFrozen(profiler.allowedIps));
  t.throws(() => Object.assign(config.server, { port: 1 }), { instanceOf: TypeError });
  t.throws(() => (config.locale.enabledLocales as string[]).push('es'), { instanceOf: TypeError });
  t.is(config.server.port, 8000);
  t.deepEqual(config.locale.enabledLocales, ['en', 'fr', 'de']);
});

test('the environment object given is left as it was', (t) => {
  const env = { PORT: '9000', APP_LOCALES: 'en,fr' };
  readConfig(env);
  t.deepEqual(env, { PORT: '9000', APP_LOCALES: 'en,fr' });
});

test('readRedisConfig reads REDIS_URL, REDIS_PREFIX and the Redis timeouts alone, as readConfig does', (t) => {
  t.deepEqual(readRedisConfig({}), { url: 'redis://127.0.0.1:6379', prefix: 'loupe:', cluster: null, profileGroups: 1, commandTimeoutMs: 1000, connectTimeoutMs: 3000 });
  const env = { REDIS_URL: 'rediss://cache.internal:6380/2', REDIS_PREFIX: 'cli:', REDIS_COMMAND_TIMEOUT_MS: '250', REDIS_CONNECT_TIMEOUT_MS: '5000', PORT: 'not read' };
  t.deepEqual(readRedisConfig(env), { url: 'rediss://cache.internal:6380/2', prefix: 'cli:', cluster: null, profileGroups: 1, commandTimeoutMs: 250, connectTimeoutMs: 5000 });
  t.deepEqual(readRedisConfig(env), readConfig({ REDIS_URL: env.REDIS_URL, REDIS_PREFIX: env.REDIS_PREFIX, REDIS_COMMAND_TIMEOUT_MS: '250', REDIS_CONNECT_TIMEOUT_MS: '5000' }).redis);
  throwsInvalid(t, { REDIS_COMMAND_TIMEOUT_MS: '0' }, 'Invalid REDIS_COMMAND_TIMEOUT_MS "0": expected an integer from 50 to 60000.');
  throwsInvalid(t, { REDIS_CONNECT_TIMEOUT_MS: 'soon' }, 'Invalid REDIS_CONNECT_TIMEOUT_MS "soon": expected an integer from 100 to 60000.');
  t.true(Object.isFrozen(readRedisConfig({})));
  throwsInvalid(t, { REDIS_URL: 'tcp://127.0.0.1:6379' }, 'Invalid REDIS_URL "tcp://127.0.0.1:6379": expected a redis://, rediss:// or redis+cluster:// URL.');
  const error = t.throws(() => readRedisConfig({ REDIS_URL: 'tcp://127.0.0.1:6379' }), { instanceOf: LoupeError });
  t.is(error?.code, 'LOUPE_ERR_CONFIG_INVALID');
});

test('PROFILER_SAMPLE is a rate from 0 to 1 (default 1), PROFILER_SLOW_MS milliseconds (default 500)', (t) => {
  t.is(readProfilerConfig({}).sample, 1);
  t.is(readProfilerConfig({}).slowMs, 500);
  t.is(readProfilerConfig({ PROFILER_SAMPLE: '0.25', PROFILER_SLOW_MS: '2000' }).sample, 0.25);
  t.is(readProfilerConfig({ PROFILER_SAMPLE: '0' }).sample, 0);
  t.is(readProfilerConfig({ PROFILER_SLOW_MS: '0' }).slowMs, 0);
  throwsInvalid(t, { PROFILER_SAMPLE: '1.5' }, 'Invalid PROFILER_SAMPLE "1.5": expected a number from 0 to 1.');
  throwsInvalid(t, { PROFILER_SAMPLE: '10%' }, 'Invalid PROFILER_SAMPLE "10%": expected a number from 0 to 1.');
  throwsInvalid(t, { PROFILER_SAMPLE: ' ' }, 'Invalid PROFILER_SAMPLE " ": expected a number from 0 to 1.');
  throwsInvalid(t, { PROFILER_SLOW_MS: '-1' }, 'Invalid PROFILER_SLOW_MS "-1": expected an integer from 0 to 3600000.');
});

test('REDIS_URL set empty means no Redis; unset, it means the Redis on 127.0.0.1:6379', (t) => {
  t.is(readConfig({ REDIS_URL: '' }).redis, null);
  t.is(readConfig({ REDIS_URL: '  ' }).redis, null);
  t.like(readConfig({}).redis, { url: 'redis://127.0.0.1:6379', prefix: 'loupe:' });
  t.like(readConfig({ REDIS_URL: '', REDIS_CLUSTER_NODES: '127.0.0.1:7000' }).redis, { url: 'redis+cluster://127.0.0.1:7000' }, 'the cluster nodes name a Redis');
  // What reads Redis itself (the CLI) needs one, and says so.
  t.throws(() => readRedisConfig({ REDIS_URL: '' }), { instanceOf: LoupeError, message: /^Invalid REDIS_URL "": expected a redis:\/\/, rediss:\/\/ or redis\+cluster:\/\/ URL: this reads Redis, and an empty REDIS_URL names none\.$/ });
});

test('several workers without Redis are refused: each would keep sessions of its own', (t) => {
  const message =
    'Invalid WORKERS "2": expected 1 without Redis (REDIS_URL is empty): sessions and login throttling are then kept in each process\'s memory, and a user logged in by one worker would be unknown to the others. Set REDIS_URL to run several workers.';
  throwsInvalid(t, { REDIS_URL: '', WORKERS: '2' }, message);
  t.is(readConfig({ REDIS_URL: '', WORKERS: '1' }).server.workers, 1);
  t.is(readConfig({ WORKERS: '2' }).server.workers, 2, 'with Redis they share it');
});
