import { Command, Flags, type Interfaces } from '@oclif/core';
import { AssayError, EXIT } from '../errors.js';
import { usageErrorFromParse } from './parse-errors.js';

export type BaseFlags<T extends typeof Command> = Interfaces.InferredFlags<
  (typeof BaseCommand)['baseFlags'] & T['flags']
>;
export type BaseArgs<T extends typeof Command> = Interfaces.InferredArgs<T['args']>;

/**
 * Shared behaviour of every assay command: `--json` (nothing but JSON on stdout), `--home` for the data
 * directory, and one mapping from typed errors to exit codes and one-line messages.
 */
export abstract class BaseCommand<T extends typeof Command> extends Command {
  static override enableJsonFlag = true;

  static override baseFlags = {
    home: Flags.string({
      description: 'Data directory holding the job store (default: the platform data dir for assay).',
      env: 'ASSAY_HOME',
      helpGroup: 'GLOBAL',
    }),
  };

  protected flags!: BaseFlags<T>;
  protected args!: BaseArgs<T>;

  /** Where the SQLite store and kept files live: flag > ASSAY_HOME > oclif's data dir. */
  protected get home(): string {
    return this.flags.home ?? this.config.dataDir;
  }

  public override async init(): Promise<void> {
    await super.init();
    const { flags, args } = await this.parse({
      flags: this.ctor.flags,
      baseFlags: (super.ctor as typeof BaseCommand).baseFlags,
      enableJsonFlag: this.ctor.enableJsonFlag,
      args: this.ctor.args,
      strict: this.ctor.strict,
    }).catch((error: unknown) => {
      // Anything the parser refuses is a usage error (exit 2), in the one error shape of every command.
      // The arguments were parsed (and refused): without this oclif warns, outside production, that they were not.
      this.parsed = true;
      throw usageErrorFromParse(error, {
        name: (this.id ?? '').split(':').join(' '),
        flags: ['json', 'help', ...Object.keys({ ...this.ctor.baseFlags, ...this.ctor.flags })],
      });
    });
    this.flags = flags as BaseFlags<T>;
    this.args = args as BaseArgs<T>;
  }

  /**
   * With no JSON colour theme, oclif's logJson still tokenizes the whole document only to print it
   * unchanged: 50 ms for a batch's results, after all the work is done.
   */
  public override logJson(json: unknown): void {
    if (this.config.theme?.json) super.logJson(json);
    else process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
  }

  /**
   * Typed errors become one readable line (plus a hint line) and their documented exit code; no stack trace
   * unless --debug. Under --json the same facts go to stdout as `{ error: { code, message, suggestions } }`.
   */
  protected override async catch(err: Error & { exitCode?: number }): Promise<unknown> {
    if (!(err instanceof AssayError) || process.env.DEBUG) return super.catch(err);
    process.exitCode = err.exitCode;
    if (this.jsonEnabled()) {
      this.logJson({ error: { code: err.code, message: err.message, suggestions: err.suggestions } });
    } else {
      const hint = err.suggestions.length ? `\n${err.suggestions.map((s) => `  hint: ${s}`).join('\n')}` : '';
      process.stderr.write(`Error: ${err.message}${hint}\n`);
    }
    return undefined;
  }
}

export { EXIT };
