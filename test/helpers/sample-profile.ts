import { type Profile } from '../../src/profiler/profile';

/**
 * A readable main-request profile of `GET http://127.0.0.1:8000/hello` that took 1 ms and
 * answered 200, without collector entries, with `changes` applied.
 */
export function sampleProfile(changes: Partial<Profile> = {}): Profile {
  return {
    version: 1,
    token: 'abc123',
    parent: null,
    children: [],
    type: 'main',
    method: 'GET',
    url: 'http://127.0.0.1:8000/hello',
    ip: '127.0.0.1',
    statusCode: 200,
    time: Date.UTC(2025, 4, 6, 7, 8, 9, 10),
    duration: 1,
    aborted: false,
    collectors: {},
    profilerCost: { collect: 0.1 },
    ...changes,
  };
}
