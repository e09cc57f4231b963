import { Flags } from '@oclif/core';
import { defaultConcurrency, leaseMsFromEnv } from '../src/cli/engine.js';
import { EngineCommand } from '../src/cli/engine-command.js';
import { formatsSee } from '../src/cli/help.js';
import { closeOnSignal } from '../src/cli/interrupt.js';
import { describeUrl } from '../src/engine/postgres/url.js';
import { startServer } from '../src/server/serve.js';

export default class Serve extends EngineCommand<typeof Serve> {
  static override summary =
    'Serve the HTTP API (lab extraction, health reports, reference data) with workers in the same process.';
  static override description = [
    'Routes: POST /extraction/lab/upload, GET /extraction/lab/status/{jobId} and ' +
      '/extraction/lab/results/{jobId}; POST /health-score/report and /health-score/report/condensed, GET ' +
      '/health-score/report/status/{job_id}; GET /reference-data/, POST /predictor-statistics/, GET ' +
      '/top-disease-predictors/, GET /lab-ranges/.',
    'Every route needs an x-api-key header (create one with `assay keys create`) except GET /healthz, ' +
      '/readyz, /openapi.json (the API description) and /docs. Jobs, keys and rate limits are shared with ' +
      "the CLI through the home's store, or with every node through the PostgreSQL --store. SIGINT or SIGTERM drains requests and jobs, then exits.",
    formatsSee('HTTP bodies'),
  ].join('\n\n');
  static override examples = [
    '<%= config.bin %> serve',
    '<%= config.bin %> serve --host 0.0.0.0 --port 8080 --workers 4',
    '<%= config.bin %> keys create --name my-team   # every route needs an x-api-key',
  ];
  static override flags = {
    host: Flags.string({ description: 'Interface to listen on.', default: '127.0.0.1', env: 'ASSAY_HOST' }),
    port: Flags.integer({
      description: 'Port (0 picks a free one).',
      default: 8080,
      min: 0,
      max: 65_535,
      env: 'ASSAY_PORT',
    }),
    workers: Flags.integer({ description: 'Worker slots for jobs (default: cores).', min: 1, max: 64 }),
    'allow-private-targets': Flags.boolean({
      description:
        'Accept http and private or loopback callback, webhook and upload URLs (tests, closed networks). Off by default: such URLs are refused.',
      default: false,
      env: 'ASSAY_ALLOW_PRIVATE_TARGETS',
    }),
    'log-level': Flags.string({
      description: 'Request log level (JSON lines on stdout; never bodies or credentials).',
      options: ['silent', 'error', 'warn', 'info', 'debug'],
      default: 'info',
      env: 'ASSAY_LOG_LEVEL',
    }),
  };

  async run(): Promise<void> {
    const engine = await this.openEngine();
    const server = await startServer(engine, {
      home: this.home,
      store: this.store,
      host: this.flags.host,
      port: this.flags.port,
      workers: this.flags.workers ?? defaultConcurrency(),
      leaseMs: leaseMsFromEnv(),
      logLevel: this.flags['log-level'],
      version: this.config.version,
      allowPrivateTargets: this.flags['allow-private-targets'],
    });
    const jobs = this.store ? `, jobs in PostgreSQL ${describeUrl(this.store)}` : '';
    process.stderr.write(`assay serve listening on ${server.url} (home ${this.home}${jobs})\n`);
    closeOnSignal(async () => {
      process.stderr.write('assay serve: draining requests and jobs...\n');
      await server.close();
    });
    await new Promise<never>(() => {});
  }
}
