import { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import type { Logger } from 'pino';

/**
 * Fastify's per-request log events, written through our logger (request-log.ts): with Fastify's own logger
 * off, the defaults would write to its null logger and be lost. Messages and fields are Fastify's. The
 * line of an answered request is not among them: the onResponse hook of request-log.ts writes it.
 */
export class RequestLines extends LogController {
  private readonly logger: Logger;
  private readonly of: (request: FastifyRequest) => Logger;
  private readonly arrived: boolean;

  constructor(opts: { logger: Logger; of: (request: FastifyRequest) => Logger; arrived: boolean }) {
    super();
    this.logger = opts.logger;
    this.of = opts.of;
    this.arrived = opts.arrived;
  }

  override incomingRequest(request: FastifyRequest): void {
    if (this.arrived) this.of(request).debug({ req: request }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error) {
      this.of(request).error(
        { req: request, res: reply, err: error, responseTime: reply.elapsedTime },
        'request errored',
      );
    }
  }

  override defaultErrorLog(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    if (reply.statusCode >= 500)
      this.of(request).error({ req: request, res: reply, err: error }, error?.message);
    else this.of(request).info({ res: reply, err: error }, error?.message);
  }

  override streamError(error: Error & { code?: string }, request: FastifyRequest, reply: FastifyReply): void {
    if (error.code === 'ERR_STREAM_PREMATURE_CLOSE') {
      this.of(request).info({ res: reply }, 'stream closed prematurely');
    } else {
      this.of(request).warn({ err: error }, 'response terminated with an error with headers already sent');
    }
  }

  override routeNotFound(request: FastifyRequest): void {
    this.of(request).info(`Route ${request.raw.method}:${request.raw.url} not found`);
  }

  override writeHeadError(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    this.of(request).warn({ req: request, res: reply, err: error }, error?.message);
  }

  override serializerError(
    error: Error,
    request: FastifyRequest,
    _reply: FastifyReply,
    metadata: { statusCode: number },
  ): void {
    this.of(request).error(
      { err: error, statusCode: metadata.statusCode },
      'The serializer for the given status code failed',
    );
  }

  override serviceUnavailable(_logger: unknown, _server: FastifyInstance): void {
    this.logger.info(
      { res: { statusCode: 503 } },
      'request aborted - refusing to accept new requests as server is closing',
    );
  }
}
