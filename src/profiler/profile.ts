import { type FlatError } from '../error-handler/flatten-error';
import { type LogRecord, type ListenerRecord, type PhaseRecord } from '../kernel/trace';

export interface ProfileRouting {
  /** The matched route name, or `null` when nothing matched. */
  readonly route: string | null;
  readonly controller: string | null;
  /** Route parameters with `_route` and `_controller`, as Symfony's request attributes. */
  readonly params: Readonly<Record<string, string>>;
  /** Why nothing matched, when nothing did. */
  readonly failure: string | null;
}

/** Everything Loupe stores for one request (main or sub-request), as JSON. */
export interface Profile {
  readonly token: string;
  readonly parent: string | null;
  readonly children: readonly string[];
  readonly type: 'main' | 'sub';
  readonly ip: string;
  readonly method: string;
  readonly url: string;
  /** Epoch milliseconds when the request started. */
  readonly time: number;
  /** 0 when the client disconnected before a response was written. */
  readonly statusCode: number;
  readonly aborted: boolean;
  /** Milliseconds from the copied request to the end of the machine. */
  readonly duration: number;
  readonly phases: readonly PhaseRecord[];
  readonly states: readonly PhaseRecord[];
  readonly listeners: readonly ListenerRecord[];
  readonly routing: ProfileRouting;
  /** Every error raised while handling the request, each with its chain of previous errors. */
  readonly errors: readonly FlatError[];
  readonly logs: readonly LogRecord[];
  readonly request: {
    readonly headers: Readonly<Record<string, string>>;
    readonly query: Readonly<Record<string, string | string[]>>;
    readonly cookies: Readonly<Record<string, string>>;
    readonly body: unknown;
    readonly session: Readonly<Record<string, unknown>> | null;
    readonly locale: string;
    readonly user: { readonly identifier: string; readonly roles: readonly string[]; readonly via: string } | null;
  };
  readonly response: {
    readonly statusCode: number;
    readonly headers: Readonly<Record<string, string | string[]>>;
  };
  /** What profiling this request cost, in milliseconds. */
  profilerCost: { collect: number };
}

/** One row of the search index: what the list and the filters need. */
export interface ProfileSummary {
  readonly token: string;
  readonly parent: string | null;
  readonly ip: string;
  readonly method: string;
  readonly url: string;
  readonly time: number;
  readonly statusCode: number;
}
