import { type LogRecord } from '../../kernel/trace';
import { type ProfileCollector } from '../collector';
import { redactData } from '../redact';
import { roundMs } from './timings';

export const LOGS_COLLECTOR = 'logs';

export interface LogsCollectorData {
  /** What the request's listeners and controller logged, in order, contexts redacted. */
  readonly records: readonly LogRecord[];
}

/** The request's log records, as Symfony's logger collector. */
export const logsCollector: ProfileCollector<LogsCollectorData> = {
  name: LOGS_COLLECTOR,
  collect: (exchange) => ({
    records: exchange.trace.logs.map((log) => ({ ...log, at: roundMs(log.at), context: redactData(log.context) as Record<string, unknown> })),
  }),
};
