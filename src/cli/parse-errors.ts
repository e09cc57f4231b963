/**
 * oclif's parse errors as assay usage errors: one short message, suggestions ("did you mean --out?", the
 * command's --help) and exit 2, printed by BaseCommand.catch as `Error:` + `hint:` lines or, under --json, as
 * `{error: {code, message, suggestions}}`. oclif's own would print the command's whole help, or under --json
 * serialise the parser's context (the whole config: package.json, home paths), hundreds of kilobytes.
 */
import { stripVTControlCharacters } from 'node:util';
import { UsageError } from '../errors.js';
import { closest } from './suggest.js';

export interface CommandShape {
  /** The command as typed: `lab extract`. */
  name: string;
  /** Every flag it takes, without dashes. */
  flags: string[];
}

export function usageErrorFromParse(error: unknown, command: CommandShape): UsageError {
  const help = `\`assay ${command.name} --help\` lists its flags and arguments.`;
  const e = error as { message?: string; flags?: unknown; args?: unknown };
  if (Array.isArray(e.flags) && e.flags.every((f) => typeof f === 'string')) {
    const unknown = e.flags as string[];
    const guesses = unknown.flatMap((flag) =>
      closest(flag.replace(/^-+/, '').split('=')[0] ?? '', command.flags).map((f) => `--${f}`),
    );
    return new UsageError(
      `Unknown flag${unknown.length > 1 ? 's' : ''} for \`assay ${command.name}\`: ${unknown.join(', ')}.`,
      [...(guesses.length ? [`Did you mean ${[...new Set(guesses)].join(' or ')}?`] : []), help],
      'unknown_flag',
    );
  }
  if (Array.isArray(e.args) && /^Missing/.test(e.message ?? '')) {
    const names = (e.args as Array<{ name?: string }>).map((a) => a.name).filter(Boolean);
    return new UsageError(`Missing argument: ${names.join(', ') || 'see --help'}.`, [help]);
  }
  return new UsageError(oneLine(e.message ?? String(error)), [help]);
}

/** oclif's message without its colours, its "See more help" line and its line breaks, within 300 chars. */
function oneLine(message: string): string {
  const text = stripVTControlCharacters(message)
    .replace(/\n?See more help with --help/g, '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join(' ')
    .replace(/^Parsing (--\S+) /, '$1: ');
  const short = text.length > 300 ? `${text.slice(0, 297)}...` : text;
  return /[.!?]$/.test(short) ? short : `${short}.`;
}
