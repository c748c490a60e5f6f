import { LoupeRequest } from '../../src/http/request';
import { type RequestData } from '../../src/http/request-data';
import { Exchange } from '../../src/kernel/exchange';

const DEFAULTS: RequestData = {
  method: 'GET',
  path: '/',
  query: '',
  headers: { host: '127.0.0.1:8000' },
  remoteAddress: '127.0.0.1',
  scheme: 'http',
  serverPort: 8000,
  body: null,
  bodyError: null,
};

/**
 * The RequestData of a `GET /` from 127.0.0.1 to port 8000 over http, without a body, with
 * `overrides` applied. `overrides.headers` are merged over the default `{ host: '127.0.0.1:8000' }`:
 * a header given replaces the default of the same name, the others are added. For a request
 * without a Host header, override after the call: `{ ...requestData(), headers: {} }`.
 */
export function requestData(overrides: Partial<RequestData> = {}): RequestData {
  return { ...DEFAULTS, ...overrides, headers: { ...DEFAULTS.headers, ...overrides.headers } };
}

/** A main-request Exchange for `requestData(overrides)`, with the default locale `en`. */
export function exchangeFor(overrides: Partial<RequestData> = {}): Exchange {
  return new Exchange(new LoupeRequest(requestData(overrides), 'en'));
}
