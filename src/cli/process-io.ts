import { createInterface } from 'node:readline/promises';
import { type CliIo } from './cli-io';

/** The CLI's I/O on this process: its environment, standard streams and terminal. */
export function processIo(): CliIo {
  let closed = false;
  // `loupe profiler:list | head` closes the pipe early: stop writing instead of crashing on EPIPE.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    closed = true;
  });
  return {
    env: process.env,
    out: (text) => {
      if (!closed) process.stdout.write(text);
    },
    err: (text) => {
      process.stderr.write(text);
    },
    interactive: process.stdin.isTTY === true,
    stdio: { input: process.stdin, output: process.stdout },
    ...(process.stdout.isTTY && process.stdout.columns > 0 ? { columns: process.stdout.columns } : {}),
    confirm: async (question) => {
      // The question goes to stderr so that stdout stays clean when it is piped.
      const prompt = createInterface({ input: process.stdin, output: process.stderr });
      try {
        const answer = await prompt.question(question);
        return /^y(es)?$/i.test(answer.trim());
      } finally {
        prompt.close();
      }
    },
    untilInterrupted: () =>
      new Promise((resolve) => {
        // Handled, so Node does not exit at once: the command closes Redis and sets its exit code.
        const stop = (): void => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          resolve();
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      }),
  };
}
