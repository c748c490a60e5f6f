import test from 'ava';
import { type FlatError } from '../../../src/error-handler/flatten-error';
import { type Profile } from '../../../src/profiler/profile';
import { PROFILE_VERSION } from '../../../src/profiler/profiler-config';
import { parentErrorsProfile, resolveParentErrors, withParentErrors } from '../../../src/profiler/ui/resolve-parent-errors';

const error = (message: string): FlatError => ({ class: 'Error', message, code: null, statusCode: 500, statusText: 'Internal Server Error', headers: {}, trace: [], previous: [] });

function profile(token: string, parent: string | null, errors: readonly unknown[]): Profile {
  return {
    version: PROFILE_VERSION,
    token,
    parent,
    children: [],
    type: parent === null ? 'main' : 'sub',
    method: 'GET',
    url: 'http://h.test/',
    ip: '127.0.0.1',
    statusCode: 500,
    time: 0,
    duration: 1,
    aborted: false,
    collectors: { exception: { errors }, logs: { records: [] } },
    profilerCost: { collect: 0 },
  };
}

const main = profile('aaaaaa', null, [error('first'), error('second')]);
const sub = profile('bbbbbb', 'aaaaaa', [{ sameAs: { profile: 'aaaaaa', index: 1 } }, error('own')]);

test('a reference is replaced by the error at its index in the parent, in place; the rest of the profile is kept', (t) => {
  const resolved = resolveParentErrors(sub, main);
  t.deepEqual(resolved.collectors['exception'], { errors: [error('second'), error('own')] });
  t.is(resolved.collectors['logs'], sub.collectors['logs']);
  t.deepEqual(sub.collectors['exception'], { errors: [{ sameAs: { profile: 'aaaaaa', index: 1 } }, error('own')] }, 'the stored profile is left alone');
});

test('a profile without references comes back as it is, and names no parent to read', async (t) => {
  t.is(resolveParentErrors(main, null), main);
  t.is(parentErrorsProfile(main), null);
  t.is(await withParentErrors(main, () => Promise.reject(new Error('nothing should be read'))), main);
});

test('a parent that is not stored, another profile, or one without the error gives an error saying where it was', (t) => {
  const gone = resolveParentErrors(sub, null).collectors['exception'] as { errors: FlatError[] };
  t.like(gone.errors[0], { class: 'ParentError', statusCode: 500, trace: [], previous: [] });
  t.regex(gone.errors[0]?.message ?? '', /profile aaaaaa of its parent request, which is not stored/);
  const other = resolveParentErrors(sub, profile('cccccc', null, [error('x'), error('y')])).collectors['exception'] as { errors: FlatError[] };
  t.is(other.errors[0]?.class, 'ParentError');
  const cut = resolveParentErrors(sub, profile('aaaaaa', null, [error('only')])).collectors['exception'] as { errors: FlatError[] };
  t.regex(cut.errors[0]?.message ?? '', /does not hold it/);
  t.is(cut.errors[1]?.message, 'own');
});

test('withParentErrors reads the parent named by the reference, once', async (t) => {
  const asked: string[] = [];
  const resolved = await withParentErrors(sub, (token) => {
    asked.push(token);
    return Promise.resolve(main);
  });
  t.deepEqual(asked, ['aaaaaa']);
  t.is((resolved.collectors['exception'] as { errors: FlatError[] }).errors[0]?.message, 'second');
});
