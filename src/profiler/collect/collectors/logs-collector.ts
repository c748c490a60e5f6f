import { type LogRecord } from '../../../kernel/trace';
import { type ProfileCollector } from '../../collector';
import { redactsItself } from '../redacts-itself';
import { roundMs } from './timings';

export const LOGS_COLLECTOR = 'logs';

export interface LogsCollectorData {
  /** What the request's listeners and controller logged, in order, contexts redacted. */
  readonly records: readonly LogRecord[];
}

/** The request's log records, as Symfony's logger collector: messages and contexts through the redaction policy (every string of its entry). */
export const logsCollector: ProfileCollector<LogsCollectorData> = redactsItself({
  name: LOGS_COLLECTOR,
  collect: (exchange, redaction) => ({
    records: exchange.trace.logs.map((log) => ({
      level: log.level,
      message: redaction.text(log.message),
      context: redaction.data(log.context) as Record<string, unknown>,
      at: roundMs(log.at),
    })),
  }),
});
