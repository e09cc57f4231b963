import { constants } from 'node:os';

/** The shell's exit code for a process ended by `signal`: 128 + its number (SIGINT 130, SIGTERM 143). */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 0);
}

export interface Interrupt {
  /** Aborted by the first SIGINT or SIGTERM: the run stops waiting and says what ended and what is left. */
  signal: AbortSignal;
  /** The signal received, if any. */
  received(): NodeJS.Signals | undefined;
  /** Stop listening (the run ended on its own). */
  dispose(): void;
}

/**
 * SIGINT/SIGTERM for a command that reports before it exits: the first signal aborts `signal` and leaves the
 * exit to the command (with signalExitCode), a second one exits at once with the same code.
 */
export function listenForInterrupt(): Interrupt {
  const controller = new AbortController();
  let received: NodeJS.Signals | undefined;
  const handler = (signal: NodeJS.Signals) => {
    if (received) process.exit(signalExitCode(received));
    received = signal;
    controller.abort(new Error(`interrupted by ${signal}`));
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    signal: controller.signal,
    received: () => received,
    dispose() {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}

/**
 * SIGINT/SIGTERM for a command whose work is safe to hand back (a server, workers that return their jobs to
 * the store): the first signal runs `close` and exits 0, or 1 when closing failed; a second exits at once.
 */
export function closeOnSignal(close: () => Promise<void>): Interrupt {
  const interrupt = listenForInterrupt();
  interrupt.signal.addEventListener(
    'abort',
    () => {
      close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    },
    { once: true },
  );
  return interrupt;
}

/** Resolves when `signal` aborts: a watch runs until then. */
export function whenAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((done) => signal.addEventListener('abort', () => done(), { once: true }));
}
