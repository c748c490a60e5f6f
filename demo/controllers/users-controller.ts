import { html, LoupeResponse, type Controller, type LoupeRequest } from '../../src';
import { SQL_ROUTES_HINT } from '../demo-config';
import { type UserRepository } from '../io/user-repository';

/** The SQL routes without DATABASE_URL: a 503 that says how to turn them on, as a page or as JSON. */
function sqlRoutesOff(request: LoupeRequest): LoupeResponse {
  const error = 'No database: DATABASE_URL is not set.';
  if (!(request.header('accept') ?? '').includes('text/html')) return LoupeResponse.json({ error, hint: SQL_ROUTES_HINT }, 503);
  return new LoupeResponse(
    html`<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"><title>No database</title></head><body><h1>${error}</h1><p>${SQL_ROUTES_HINT}</p></body></html>`.toString(),
    503,
  );
}

/** `GET /io/users`: every user with their number of orders, in one query. */
export function createUsersController(users: UserRepository | null): Controller {
  return {
    name: 'users.list',
    handle: async ({ request }) => (users === null ? sqlRoutesOff(request) : { users: await users.withOrderCounts() }),
  };
}

/**
 * `GET /io/users-n-plus-one`: the same answer the slow way, one query for the users and then
 * one per user in a loop: the profiler's database panel flags it as N+1.
 */
export function createUsersNPlusOneController(users: UserRepository | null): Controller {
  return {
    name: 'users.listNPlusOne',
    handle: async ({ request }) => {
      if (users === null) return sqlRoutesOff(request);
      const list = [];
      for (const user of await users.all()) list.push({ ...user, orders: await users.countOrders(user.id) });
      return { users: list };
    },
  };
}
