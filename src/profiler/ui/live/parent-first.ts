import { type LiveSummary } from './live-summary';

/** Tokens remembered as seen, so that a sub-request whose parent came earlier is not held. */
const SEEN_MAX = 2_000;

/**
 * Puts each error sub-request right after its parent in a live list. A sub-request ends, and is
 * collected, before the request that threw, so a batch can announce it first (or announce it in
 * the batch before its parent's): such a summary is held until its parent arrives, or for at most
 * `holdMs`, then passed on anyway (the parent may never be stored, or may be sampled out).
 */
export class ParentFirst {
  readonly #emit: (summary: LiveSummary) => void;
  readonly #holdMs: number;
  readonly #seen = new Set<string>();
  readonly #held = new Map<string, { summaries: LiveSummary[]; timer: NodeJS.Timeout }>();

  constructor(emit: (summary: LiveSummary) => void, holdMs = 1_000) {
    this.#emit = emit;
    this.#holdMs = holdMs;
  }

  /** Passes on one message's summaries, parents first. */
  push(summaries: readonly LiveSummary[]): void {
    const tokens = new Set(summaries.map((summary) => summary.token));
    const parents = summaries.filter((summary) => !summary.sub || summary.parent === null || !tokens.has(summary.parent));
    const children = summaries.filter((summary) => !parents.includes(summary));
    for (const summary of [...parents, ...children]) this.#one(summary);
  }

  #one(summary: LiveSummary): void {
    const parent = summary.parent;
    if (summary.sub && parent !== null && !this.#seen.has(parent)) {
      const waiting = this.#held.get(parent);
      if (waiting !== undefined) waiting.summaries.push(summary);
      else this.#held.set(parent, { summaries: [summary], timer: setTimeout(() => this.#release(parent), this.#holdMs) });
      return;
    }
    this.#remember(summary.token);
    this.#emit(summary);
    this.#release(summary.token);
  }

  #release(parent: string): void {
    const waiting = this.#held.get(parent);
    if (waiting === undefined) return;
    clearTimeout(waiting.timer);
    this.#held.delete(parent);
    for (const summary of waiting.summaries) {
      this.#remember(summary.token);
      this.#emit(summary);
    }
  }

  #remember(token: string): void {
    this.#seen.add(token);
    if (this.#seen.size > SEEN_MAX) {
      const oldest = this.#seen.values().next();
      if (oldest.done !== true) this.#seen.delete(oldest.value);
    }
  }

  /** Passes on what is held, as the list ends. */
  flush(): void {
    for (const parent of [...this.#held.keys()]) this.#release(parent);
  }
}
