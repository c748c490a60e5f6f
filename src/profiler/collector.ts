import { type CollectedRequest } from '../kernel/collected-request';
import { type RedactionPolicy } from './collect/redaction-policy';

/**
 * Records one aspect of a finished request, as Symfony's DataCollectorInterface (`collect()`,
 * `getName()`): the profile stores what `collect` answers under `collectors[name]`, and the
 * panel that names this collector reads it back.
 *
 * `collect` runs synchronously at kernel.terminate, once per profiled request (main request
 * and error sub-request), with a read-only view of it: request, response, errors, attributes,
 * timings, and what was recorded into it (`records(kind)`). It must answer a plain JSON object, bounded, because the live request
 * objects are gone once it returns. Application data it copies (bodies, maps of fields) goes
 * through `redaction.data()`; every string of its answer is then redacted as text
 * (`redaction.entry()`) before the profile is stored.
 */
export interface ProfileCollector<TData extends object = object> {
  /** The key of its entry in `profile.collectors`: letters, digits, `_`, `.` or `-`. */
  readonly name: string;
  /** The entry of one finished request: a plain, bounded JSON object; see above for when it runs and what it redacts. */
  collect(request: CollectedRequest, redaction: RedactionPolicy): TData;
}
