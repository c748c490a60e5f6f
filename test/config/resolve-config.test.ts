import { availableParallelism } from 'node:os';
import test from 'ava';
import { readConfig, resolveConfig, type LoupeConfigInput } from '../../src';
import { readProfilerConfig, resolveProfilerConfig } from '../../src/profiler';

/*
 * The configuration given in code: an option given wins over its environment variable, which
 * wins over the default; a value given in code is checked by its variable's rule, and a wrong one
 * named by its path. `tsc --noEmit -p .` checks the `@ts-expect-error` lines: each must be an error.
 */

const ENV = {
  APP_ENV: 'test',
  APP_DEBUG: '0',
  PROFILER_ENABLED: '0',
  SERVER_TIMING: '0',
  REQUEST_CONTEXT: '0',
  HOST: '0.0.0.0',
  PORT: '9000',
  MAX_BODY_SIZE: '10',
  WORKERS: '3',
  REDIS_URL: 'redis://10.0.0.1:6379',
  REDIS_PREFIX: 'env:',
  REDIS_COMMAND_TIMEOUT_MS: '200',
  APP_LOCALES: 'de,fr',
  APP_DEFAULT_LOCALE: 'fr',
  SESSION_LIFETIME: '60',
  APP_SECRET: 'env-secret',
  REMEMBER_ME_LIFETIME: '120',
  LOG_LEVEL: 'warn',
  LOG_FORMAT: 'json',
  PROFILER_REDACT: 'ssn',
};

test('every option given in code wins over its variable', (t) => {
  const config = resolveConfig({
    env: ENV,
    appEnv: 'dev',
    debug: true,
    profiler: true,
    serverTiming: true,
    requestContext: true,
    server: { host: '127.0.0.2', port: 0, maxBodySize: 2048, workers: 2 },
    redis: { url: 'redis://127.0.0.1:6380', prefix: 'code:', commandTimeoutMs: 300, connectTimeoutMs: 400, profileGroups: 2 },
    locale: { enabledLocales: ['en', 'it'], defaultLocale: 'it' },
    session: { lifetime: 90 },
    security: { secret: 'code-secret', rememberMeLifetime: 180 },
    log: { level: 'error', format: 'pretty', redact: ['iban'] },
  });
  t.like(config, {
    appEnv: 'dev',
    debug: true,
    profiler: true,
    serverTiming: true,
    requestContext: true,
    server: { host: '127.0.0.2', port: 0, maxBodySize: 2048, workers: 2 },
    redis: { url: 'redis://127.0.0.1:6380', prefix: 'code:', commandTimeoutMs: 300, connectTimeoutMs: 400, profileGroups: 2, cluster: null },
    locale: { enabledLocales: ['en', 'it'], defaultLocale: 'it' },
    session: { lifetime: 90, cookieName: 'LOUPESESSID' },
    security: { secret: 'code-secret', rememberMeLifetime: 180 },
    log: { level: 'error', format: 'pretty', redact: ['iban'] },
  });
  t.true(Object.isFrozen(config) && Object.isFrozen(config.server) && Object.isFrozen(config.redis));
});

test('what the code leaves out comes from the environment, then from the defaults', (t) => {
  const config = resolveConfig({ env: ENV, server: { port: 0 }, redis: { prefix: 'code:' } });
  t.like(config, {
    appEnv: 'test',
    debug: false,
    profiler: false,
    server: { host: '0.0.0.0', port: 0, maxBodySize: 10, workers: 3 },
    redis: { url: 'redis://10.0.0.1:6379', prefix: 'code:', commandTimeoutMs: 200, connectTimeoutMs: 3000 },
    locale: { enabledLocales: ['de', 'fr'], defaultLocale: 'fr' },
    security: { secret: 'env-secret', rememberMeLifetime: 120 },
    log: { level: 'warn', format: 'json', redact: ['ssn'] },
  });
  t.like(resolveConfig({ env: {}, server: { host: '::1' } }), { appEnv: 'dev', debug: true, server: { host: '::1', port: 8000, maxBodySize: 1024 * 1024, workers: 1 }, log: { format: 'auto' } });
  t.is(resolveConfig({ env: {}, server: { workers: 'auto' } }).server.workers, availableParallelism());
});

test('the profiler follows debug unless PROFILER_ENABLED or `profiler` says otherwise; REQUEST_CONTEXT follows either, SERVER_TIMING debug alone', (t) => {
  const prod = { APP_ENV: 'prod', APP_SECRET: 'a-secret-of-our-own' };
  t.like(resolveConfig({ env: {} }), { debug: true, profiler: true, serverTiming: true, requestContext: true });
  t.like(resolveConfig({ env: prod }), { debug: false, profiler: false, serverTiming: false, requestContext: false });
  t.like(resolveConfig({ env: { ...prod, PROFILER_ENABLED: '1' } }), { debug: false, profiler: true, serverTiming: false, requestContext: true });
  t.like(resolveConfig({ env: prod, profiler: true }), { debug: false, profiler: true, serverTiming: false, requestContext: true });
  t.like(resolveConfig({ env: { PROFILER_ENABLED: 'off' } }), { debug: true, profiler: false, serverTiming: true, requestContext: true });
  t.like(resolveConfig({ env: { PROFILER_ENABLED: '1' }, profiler: false }), { profiler: false }, 'code over the variable');
  t.throws(() => resolveConfig({ env: { PROFILER_ENABLED: 'maybe' } }), { code: 'LOUPE_ERR_CONFIG_INVALID', message: 'Invalid PROFILER_ENABLED "maybe": expected 0 or 1.' });
});

test('redis: null is none whatever REDIS_URL says; an object asks for a Redis even with REDIS_URL empty; unset, the environment decides', (t) => {
  t.is(resolveConfig({ env: { REDIS_URL: 'redis://10.0.0.1:6379' }, redis: null }).redis, null);
  t.like(resolveConfig({ env: { REDIS_URL: '' }, redis: { prefix: 'p:' } }).redis, { url: 'redis://127.0.0.1:6379', prefix: 'p:' });
  t.is(resolveConfig({ env: { REDIS_URL: '' } }).redis, null);
  t.like(resolveConfig({ env: { REDIS_CLUSTER_NODES: '127.0.0.1:7000' }, redis: { url: 'redis://127.0.0.1:6390' } }).redis, { url: 'redis://127.0.0.1:6390', cluster: null }, 'the URL in code wins over the cluster nodes');
  t.like(resolveConfig({ env: {}, redis: { url: 'redis+cluster://127.0.0.1:7000,127.0.0.1:7001' } }).redis, { profileGroups: 16, cluster: { nodes: [{ host: '127.0.0.1', port: 7000 }, { host: '127.0.0.1', port: 7001 }] } });
});

test('a value given in code is checked by its variable\'s rule, and the message names its path', (t) => {
  const refused: [LoupeConfigInput, string][] = [
    [{ server: { port: 70000 } }, 'Invalid config.server.port 70000: expected an integer from 0 to 65535.'],
    [{ server: { port: 80.5 } }, 'Invalid config.server.port 80.5: expected an integer from 0 to 65535.'],
    [{ server: { maxBodySize: -1 } }, 'Invalid config.server.maxBodySize -1: expected an integer from 0 to 1073741824.'],
    [{ server: { workers: 0 } }, 'Invalid config.server.workers 0: expected an integer from 1 to 256, or auto.'],
    [{ session: { lifetime: 0 } }, 'Invalid config.session.lifetime 0: expected an integer from 1 to 31536000.'],
    [{ redis: { commandTimeoutMs: 10 } }, 'Invalid config.redis.commandTimeoutMs 10: expected an integer from 50 to 60000.'],
    [{ redis: { url: 'redis+cluster://127.0.0.1:7000', prefix: 'a{b}:' } }, 'Invalid config.redis.prefix "a{b}:": expected no "{" or "}" with a Redis Cluster (Loupe adds its own hash tags after the prefix).'],
    [{ locale: { enabledLocales: ['en'], defaultLocale: 'fr' } }, 'Invalid config.locale.defaultLocale "fr": expected one of en.'],
    [{ locale: { enabledLocales: [] } }, 'Invalid config.locale.enabledLocales []: expected at least one locale.'],
    [{ appEnv: 'prod', security: { secret: '' } }, 'Invalid config.security.secret "": expected a secret of your own in prod.'],
    [{ redis: null, server: { workers: 2 } }, 'Invalid WORKERS "2": expected 1 without Redis (REDIS_URL is empty): sessions and login throttling are then kept in each process\'s memory, and a user logged in by one worker would be unknown to the others. Set REDIS_URL to run several workers.'],
  ];
  for (const [input, message] of refused) t.throws(() => resolveConfig({ env: {}, ...input }), { code: 'LOUPE_ERR_CONFIG_INVALID', message }, message);
});

test('a value of the wrong type, from JavaScript or a cast, is refused at run time as the compiler refuses it', (t) => {
  const wrong = (input: unknown): LoupeConfigInput => input as LoupeConfigInput;
  t.throws(() => resolveConfig({ env: {}, ...wrong({ debug: 'yes' }) }), { message: 'Invalid config.debug "yes": expected true or false.' });
  t.throws(() => resolveConfig({ env: {}, ...wrong({ server: { port: '8000' } }) }), { message: 'Invalid config.server.port "8000": expected an integer from 0 to 65535.' });
  t.throws(() => resolveConfig({ env: {}, ...wrong({ appEnv: 'staging' }) }), { message: 'Invalid config.appEnv "staging": expected dev, prod or test.' });
  t.throws(() => resolveConfig({ env: {}, ...wrong({ log: { level: 'loud' } }) }), { message: 'Invalid config.log.level "loud": expected one of fatal, error, warn, info, debug, trace, silent.' });
  t.throws(() => resolveConfig({ env: {}, ...wrong({ redis: 'redis://127.0.0.1:6379' }) }), { message: 'Invalid config.redis "redis://127.0.0.1:6379": expected an object ({ url, prefix, … }) or null for none.' });
  t.throws(() => resolveConfig({ env: {}, ...wrong({ redis: { url: 'http://h:1' } }) }), { message: /^Invalid config\.redis\.url "http:\/\/h:1": expected a redis:\/\/, rediss:\/\/ or redis\+cluster:\/\/ URL/ });
});

test('a Config is an input too: resolved again, it gives itself', (t) => {
  for (const env of [{}, ENV, { APP_ENV: 'prod', APP_SECRET: 's', REDIS_URL: '', PROFILER_ENABLED: '1' }]) {
    const config = readConfig(env);
    t.deepEqual(resolveConfig(config), config);
    t.deepEqual(resolveConfig({ ...config, debug: !config.debug }), { ...config, debug: !config.debug }, 'a part replaced, the rest kept');
  }
});

test('the compiler refuses a wrong key or a wrong type', (t) => {
  const refusedByTsc: LoupeConfigInput[] = [
    // @ts-expect-error -- no such option
    { server: { prot: 8000 } },
    // @ts-expect-error -- a port is a number
    { server: { port: '8000' } },
    // @ts-expect-error -- an object or null
    { redis: 'redis://127.0.0.1:6379' },
    // @ts-expect-error -- dev, prod or test
    { appEnv: 'staging' },
    // @ts-expect-error -- a boolean
    { profiler: 'on' },
    // @ts-expect-error -- the environment's strings
    { env: { PORT: 8000 } },
  ];
  t.is(refusedByTsc.length, 6);
});

test('the profiler\'s settings given in code win over its PROFILER_* variables, and a wrong one is named by its path', (t) => {
  const env = { PROFILER_SAMPLE: '0.5', PROFILER_ALLOWED_IPS: '10.0.0.0/8', PROFILER_CAPTURE: 'http', PROFILER_IDE: 'vscode://file/%f:%l', PROFILER_LIFETIME: '60' };
  t.like(resolveProfilerConfig({ sample: 0.1, allowedIps: ['192.168.0.0/16'], capture: [], ide: null }, env), { sample: 0.1, allowedIps: ['192.168.0.0/16'], capture: [], ide: null, lifetime: 60 });
  t.like(resolveProfilerConfig({}, env), { sample: 0.5, allowedIps: ['10.0.0.0/8'], capture: ['http'], ide: 'vscode://file/%f:%l' });
  t.deepEqual(resolveProfilerConfig({}, env), readProfilerConfig(env));
  t.throws(() => resolveProfilerConfig({ maxProfiles: 0 }, {}), { message: 'Invalid profilerConfig.maxProfiles 0: expected an integer from 1 to 10000000.' });
  t.throws(() => resolveProfilerConfig({ ide: 'vscode://file' }, {}), { message: 'Invalid profilerConfig.ide "vscode://file": expected a link template with %f (the file) and usually %l (the line), e.g. vscode://file/%f:%l.' });
  t.throws(() => resolveProfilerConfig({ capture: ['mongo' as 'http'] }, {}), { message: /^Invalid profilerConfig\.capture "mongo": expected a comma-separated list of kinds \(http, redis, mysql2, pg, postgres\) and libraries \(undici, node:http, ioredis, node-redis, mysql2, pg, postgres; fetch is undici\)/ });
  t.like(resolveProfilerConfig({ capture: ['http', 'redis', '-fetch'] }, { PROFILER_CAPTURE: 'pg' }), { capture: ['http', 'redis'], captureOff: ['undici'] });
  // @ts-expect-error -- a rate is a number
  t.throws(() => resolveProfilerConfig({ sample: '0.1' }, {}), { message: 'Invalid profilerConfig.sample "0.1": expected a number from 0 to 1.' });
});
