import { STATUS_TEXT } from '../../errors/status-text';
import { type FlatError } from '../../error-handler/flatten-error';
import { EXCEPTION_COLLECTOR, type ParentErrorReference, type StoredExceptionData } from '../collect/collectors/exception-collector';
import { collectorData, type Profile } from '../profile';

function isReference(error: unknown): error is ParentErrorReference {
  if (typeof error !== 'object' || error === null || !('sameAs' in error)) return false;
  const { sameAs } = error as { sameAs: unknown };
  return typeof sameAs === 'object' && sameAs !== null && typeof (sameAs as { profile?: unknown }).profile === 'string' && typeof (sameAs as { index?: unknown }).index === 'number';
}

/** The parent profile's token an error sub-request's profile refers to for its errors, or `null` when it refers to none. */
export function parentErrorsProfile(profile: Profile): string | null {
  const errors = collectorData<StoredExceptionData>(profile, EXCEPTION_COLLECTOR)?.errors;
  const reference = Array.isArray(errors) ? errors.find(isReference) : undefined;
  return reference?.sameAs.profile ?? null;
}

/** Stands for an error the parent's profile no longer holds: what it was, as far as this profile knows. */
function unavailable(profile: Profile, reference: ParentErrorReference, why: string): FlatError {
  const { statusCode } = profile;
  return {
    class: 'ParentError',
    message: `The error this sub-request rendered is recorded in the profile ${reference.sameAs.profile} of its parent request, which ${why}.`,
    code: null,
    statusCode,
    statusText: STATUS_TEXT[statusCode] ?? '',
    headers: {},
    trace: [],
    previous: [],
  };
}

/**
 * `profile` with the errors its exception entry refers to in `parent` (the parent request's
 * profile, `null` when it is not stored) put back in place: what the panels, the JSON API and
 * `profiler:show` show of an error sub-request is what its profile held before it referred to
 * them. A profile without references is returned as it is.
 */
export function resolveParentErrors(profile: Profile, parent: Profile | null): Profile {
  const entry = collectorData<StoredExceptionData>(profile, EXCEPTION_COLLECTOR);
  if (entry === undefined || !Array.isArray(entry.errors) || !entry.errors.some(isReference)) return profile;
  const parentErrors = parent === null ? undefined : collectorData<StoredExceptionData>(parent, EXCEPTION_COLLECTOR)?.errors;
  const errors = entry.errors.map((error): unknown => {
    if (!isReference(error)) return error;
    if (parent === null || parent.token !== error.sameAs.profile) return unavailable(profile, error, 'is not stored (expired, or dropped)');
    const found: unknown = Array.isArray(parentErrors) ? parentErrors[error.sameAs.index] : undefined;
    return typeof found === 'object' && found !== null && !isReference(found) ? found : unavailable(profile, error, 'does not hold it (cut to fit its size limit)');
  });
  return { ...profile, collectors: { ...profile.collectors, [EXCEPTION_COLLECTOR]: { ...entry, errors } } };
}

/** `profile` with its parent's errors put back, the parent read with `read` only when the profile refers to it. */
export async function withParentErrors(profile: Profile, read: (token: string) => Promise<Profile | null>): Promise<Profile> {
  const token = parentErrorsProfile(profile);
  return token === null ? profile : resolveParentErrors(profile, await read(token));
}
