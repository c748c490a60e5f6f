import { type ProfileCollector } from '../collector';
import { type RedactionPolicy } from './redaction-policy';

/**
 * Loupe's own collectors that pass every string of their entry through the redaction policy as
 * they build it (`redaction.text`, `headers`, `data`): the last pass over the entry
 * (`redaction.entry`) would see again each of those strings, plus a walk of every object and
 * list, the timeline's spans above all. That pass stays for every other collector, an
 * application's first of all, whose strings nobody has redacted yet.
 */
const REDACTING_ITSELF = new WeakSet<ProfileCollector>();

/** Marks `collector` as one that redacts every string of its entry itself (see above). */
export function redactsItself<TCollector extends ProfileCollector>(collector: TCollector): TCollector {
  REDACTING_ITSELF.add(collector);
  return collector;
}

/** True for a collector marked by redactsItself: its entry needs no last redaction pass. */
export function isRedactingItself(collector: ProfileCollector): boolean {
  return REDACTING_ITSELF.has(collector);
}

/** `value` redacted as text when it is a string, else `null`: for a collector that redacts itself. */
export function textOrNull(value: unknown, redaction: RedactionPolicy): string | null {
  return typeof value === 'string' ? redaction.text(value) : null;
}
