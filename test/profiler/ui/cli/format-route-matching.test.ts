import test from 'ava';
import { formatRouteMatching } from '../../../../src/profiler/ui/cli/format/format-route-matching';

const routes = [
  { name: 'home', path: '/', level: 0, log: 'Path "/" does not match' },
  { name: 'hello', path: '/hello/{name}', level: 1, log: 'Method "POST" does not match any of the required methods (GET)' },
  { name: 'any', path: '/{a}', level: 1, log: 'Requirement for "a" does not match (\\d+)' },
] as const;

test('the routes tried: the closest named first and marked in the table, outcomes in the words of Symfony\'s panel', (t) => {
  t.deepEqual(formatRouteMatching({ method: 'POST', path: '/hello/x', routes, omitted: 0 }), [
    'Routes tried for POST /hello/x:',
    'Closest route: hello (/hello/{name}): Path almost matches, but Method "POST" does not match any of the required methods (GET)',
    '#    Route  Path           Outcome',
    `---  -----  -------------  ${'-'.repeat('Path almost matches, but Method "POST" does not match any of the required methods (GET)'.length)}`,
    '1    home   /              Path does not match',
    '> 2  hello  /hello/{name}  Path almost matches, but Method "POST" does not match any of the required methods (GET)',
    '3    any    /{a}           Path almost matches, but Requirement for "a" does not match (\\d+)',
  ]);
});

test('routes past the limit are counted; with no near miss it says so', (t) => {
  const lines = formatRouteMatching({ method: 'GET', path: '/nope', routes: routes.slice(0, 1), omitted: 250 });
  t.is(lines[1], 'No route almost matches.');
  t.is(lines.at(-1), '… 250 more routes tried, not listed (a profile lists the first 1).');
});

test('a router that gives no trace is named under the routes of those that do, and alone when none does', (t) => {
  const lines = formatRouteMatching({ method: 'GET', path: '/pages/nope', routes: routes.slice(0, 1), omitted: 0, untraced: ['PageRouter'] });
  t.is(lines[2], '#  Route  Path  Outcome');
  t.is(lines.at(-1), 'The router PageRouter gives no trace: its routes are not listed (it is no TraceableRouter).');
  t.deepEqual(formatRouteMatching({ method: 'GET', path: '/x', routes: [], omitted: 0, untraced: ['Router'] }), [
    'Routes tried for GET /x:',
    'The router Router gives no trace: its routes are not listed (it is no TraceableRouter).',
  ]);
});
