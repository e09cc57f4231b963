/**
 * One error model from engine to CLI and HTTP. Each error carries a stable code; the CLI maps it to an exit
 * code and a one-line message, the server to the error bodies of SPEC.md. Messages never carry PHI.
 */
export const EXIT = { ok: 0, jobFailed: 1, usage: 2, notFound: 3 } as const;

export class AssayError extends Error {
  readonly code: string;
  readonly exitCode: number;
  readonly suggestions: string[];

  constructor(
    code: string,
    message: string,
    opts: { exitCode?: number; suggestions?: string[]; cause?: unknown } = {},
  ) {
    super(message, { cause: opts.cause });
    this.name = new.target.name;
    this.code = code;
    this.exitCode = opts.exitCode ?? EXIT.jobFailed;
    this.suggestions = opts.suggestions ?? [];
  }
}

/** Bad input from the user: flags, arguments, files. */
export class UsageError extends AssayError {
  constructor(message: string, suggestions: string[] = [], code = 'invalid_request') {
    super(code, message, { exitCode: EXIT.usage, suggestions });
  }
}

/**
 * Error.stackTraceLimit for the duration of one construction. An error that is an expected answer (a 404,
 * a 401) never has its stack read, and capturing it cost more than the rest of such an answer.
 */
export function stackTraceLimit(limit: number): () => void {
  const saved = Error.stackTraceLimit;
  Error.stackTraceLimit = limit;
  return () => {
    Error.stackTraceLimit = saved;
  };
}

/** Nothing by that id: an answer, not a fault, so built without a stack trace. */
export class NotFoundError extends AssayError {
  constructor(message: string, suggestions: string[] = []) {
    const restore = stackTraceLimit(0);
    try {
      super('not_found', message, { exitCode: EXIT.notFound, suggestions });
    } finally {
      restore();
    }
  }
}

/**
 * The store cannot be opened or used: unwritable home, corrupt file, newer schema (`store_unavailable`), or
 * its file gone from a home that held one (`store_missing`).
 */
export class StoreError extends AssayError {
  constructor(
    message: string,
    opts: { suggestions?: string[]; cause?: unknown; code?: 'store_unavailable' | 'store_missing' } = {},
  ) {
    const { code = 'store_unavailable', ...rest } = opts;
    super(code, message, { exitCode: EXIT.jobFailed, ...rest });
  }
}

/** A state change the job's current status does not allow (retry a running job, cancel a finished one). */
export class ConflictError extends AssayError {
  constructor(message: string) {
    super('conflict', message, { exitCode: EXIT.usage });
  }
}
