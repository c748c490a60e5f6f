/**
 * Every error code Loupe raises, in one place. Codes read `LOUPE_ERR_<AREA>_<PROBLEM>`;
 * the registry test checks that each entry is well formed and used once.
 */
export const ERROR_CODES = {
  LOUPE_ERR_HTTP_BAD_REQUEST: { statusCode: 400, title: 'Bad Request' },
  LOUPE_ERR_HTTP_INVALID_HOST: { statusCode: 400, title: 'Bad Request' },
  LOUPE_ERR_HTTP_MALFORMED_JSON: { statusCode: 400, title: 'Bad Request' },
  LOUPE_ERR_HTTP_JSON_TOO_DEEP: { statusCode: 400, title: 'Bad Request' },
  LOUPE_ERR_HTTP_INVALID_FRAMING: { statusCode: 400, title: 'Bad Request' },
  LOUPE_ERR_HTTP_UNAUTHORIZED: { statusCode: 401, title: 'Unauthorized' },
  LOUPE_ERR_HTTP_FORBIDDEN: { statusCode: 403, title: 'Forbidden' },
  LOUPE_ERR_HTTP_NOT_FOUND: { statusCode: 404, title: 'Not Found' },
  LOUPE_ERR_HTTP_METHOD_NOT_ALLOWED: { statusCode: 405, title: 'Method Not Allowed' },
  LOUPE_ERR_HTTP_PAYLOAD_TOO_LARGE: { statusCode: 413, title: 'Content Too Large' },
  LOUPE_ERR_HTTP_INTERNAL: { statusCode: 500, title: 'Internal Server Error' },
  LOUPE_ERR_HTTP_SERVICE_UNAVAILABLE: { statusCode: 503, title: 'Service Unavailable' },
  LOUPE_ERR_ROUTING_RESOURCE_NOT_FOUND: { statusCode: 404, title: 'Not Found' },
  LOUPE_ERR_ROUTING_METHOD_NOT_ALLOWED: { statusCode: 405, title: 'Method Not Allowed' },
  LOUPE_ERR_ROUTING_INVALID_ROUTE: { statusCode: 500, title: 'Internal Server Error' },
  LOUPE_ERR_KERNEL_CONTROLLER_NO_RESPONSE: { statusCode: 500, title: 'Internal Server Error' },
  LOUPE_ERR_KERNEL_ERROR_RENDERING_FAILED: { statusCode: 500, title: 'Internal Server Error' },
  LOUPE_ERR_STOPWATCH_NOT_STARTED: { statusCode: 500, title: 'Internal Server Error' },
  LOUPE_ERR_CONFIG_INVALID: { statusCode: 500, title: 'Internal Server Error' },
  LOUPE_ERR_SERVER_UWS_FALLBACK: { statusCode: 500, title: 'Internal Server Error' },
  LOUPE_ERR_SERVER_UWS_UNSUPPORTED: { statusCode: 500, title: 'Internal Server Error' },
  LOUPE_ERR_SERVER_LISTEN_FAILED: { statusCode: 500, title: 'Internal Server Error' },
  LOUPE_ERR_SERVER_STREAM_LENGTH: { statusCode: 500, title: 'Internal Server Error' },
  LOUPE_ERR_SERVER_WORKER_START_FAILED: { statusCode: 500, title: 'Internal Server Error' },
  LOUPE_ERR_REDIS_UNAVAILABLE: { statusCode: 500, title: 'Internal Server Error' },
  LOUPE_ERR_SESSION_STORAGE: { statusCode: 500, title: 'Internal Server Error' },
  LOUPE_ERR_SESSION_STORAGE_UNAVAILABLE: { statusCode: 503, title: 'Service Unavailable' },
  LOUPE_ERR_SESSION_NOT_SAVED: { statusCode: 503, title: 'Service Unavailable' },
  LOUPE_ERR_PROFILER_STORAGE_UNAVAILABLE: { statusCode: 503, title: 'Service Unavailable' },
  LOUPE_ERR_SECURITY_TOO_MANY_LOGIN_ATTEMPTS: { statusCode: 429, title: 'Too Many Requests' },
} as const;

/** A code of Loupe's own registry, `LOUPE_ERR_<AREA>_<PROBLEM>`; an application's errors use codes of their own. */
export type ErrorCode = keyof typeof ERROR_CODES;
