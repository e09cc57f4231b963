import { AssayError, EXIT } from '../../errors.js';

/**
 * Failures caused by the uploaded document rather than by the service. Messages are fixed sentences: a
 * lab PDF is full of PHI, so nothing read from the file (and no library message, which can quote it) may
 * end up in an error that is logged, stored or returned.
 */
export type InvalidPdfReason = 'empty' | 'not_a_pdf' | 'password_protected' | 'malformed';

const MESSAGES: Record<InvalidPdfReason, string> = {
  empty: 'The uploaded file is empty.',
  not_a_pdf: 'The uploaded file is not a PDF.',
  password_protected: 'The PDF is password-protected and cannot be read.',
  malformed: 'The PDF is damaged or incomplete and cannot be read.',
};

export class InvalidPdfError extends AssayError {
  readonly reason: InvalidPdfReason;
  /** Class name of the underlying parser error (e.g. InvalidPDFException), for diagnosis; never its message. */
  readonly parserError: string | null;

  constructor(reason: InvalidPdfReason, parserError: string | null = null) {
    super('invalid_pdf', MESSAGES[reason], {
      exitCode: EXIT.jobFailed,
      suggestions: ['Check that the file opens in a PDF viewer, then upload it again.'],
    });
    this.reason = reason;
    this.parserError = parserError;
  }
}

/**
 * An accepted lab report from which no result could be read: a failure, never an empty `completed` job.
 */
export class NoResultsError extends AssayError {
  constructor() {
    super('no_results', 'The document was accepted as a lab report, but no result could be read from it.', {
      exitCode: EXIT.jobFailed,
      suggestions: [
        "Check that the PDF is the laboratory's report of results, not a summary or a requisition.",
        'If it is, report the layout (never the file) so support for it can be added.',
      ],
    });
  }
}
