/** Any method, as a patch sees it. */
export type Method = (this: unknown, ...args: unknown[]) => unknown;

/** Replaces `target[name]`; answers how to put the original back. */
export function wrapMethod(target: Record<string, unknown>, name: string, wrap: (original: Method) => Method): () => void {
  const original = target[name];
  if (typeof original !== 'function') return () => {};
  const hadOwn = Object.hasOwn(target, name);
  target[name] = wrap(original as Method);
  return () => {
    if (hadOwn) target[name] = original;
    else delete target[name];
  };
}

