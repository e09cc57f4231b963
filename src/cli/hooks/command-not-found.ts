/**
 * oclif's `command_not_found` hook: `assay lab extrat` gets "did you mean `assay lab extract`?" and exit 2,
 * in the error shape of every command (`--json`: `{error: {code, message, suggestions}}` on stdout). A typo
 * in a command name is a usage error; oclif's own answer is exit 127 with no suggestion.
 */
import type { Hook } from '@oclif/core';
import { EXIT } from '../../errors.js';
import { closest, editDistance } from '../suggest.js';

const hook: Hook<'command_not_found'> = async ({ id, argv, config }) => {
  const typed = id.split(':');
  const commands = config.commandIDs.filter((c) => !config.findCommand(c)?.hidden);
  const topics = config.topics.filter((t) => !t.hidden).map((t) => t.name);
  const error = notFound(typed, argv ?? [], commands, topics);
  process.exitCode = EXIT.usage;
  if ((argv ?? []).includes('--json')) process.stdout.write(`${JSON.stringify({ error }, null, 2)}\n`);
  else
    process.stderr.write(
      `Error: ${error.message}\n${error.suggestions.map((s) => `  hint: ${s}`).join('\n')}\n`,
    );
};

export default hook;

export function notFound(typed: string[], argv: string[], commands: string[], topics: string[] = []) {
  const shown = (c: string) => `assay ${c.split(':').join(' ')}`;
  // oclif folds words after a command with no arguments into the id: `jobs list extra`.
  for (let n = typed.length - 1; n > 0; n--) {
    const prefix = typed.slice(0, n).join(':');
    if (commands.includes(prefix))
      return {
        code: 'invalid_request',
        message: `\`${shown(prefix)}\` takes no argument ${typed.slice(n).join(' ')}.`,
        suggestions: [`\`${shown(prefix)} --help\` lists its flags.`],
      };
  }
  // The id may hold the arguments too (`lab extrat a.pdf`), and a mistyped topic leaves its command word in
  // argv (`jbos list`): the longest run of words that is near a command is what was meant as one.
  const words = [...typed, ...argv.filter((a) => !a.startsWith('-')).slice(0, 1)];
  let best: { n: number; distance: number; guesses: string[] } | null = null;
  for (let n = words.length; n > 0; n--) {
    const typedId = words.slice(0, n).join(':');
    // Topics too (`assay jbos` means the jobs topic), but not the topic typed right before a wrong command.
    const guesses = closest(typedId, [...commands, ...topics]).filter((c) => c !== typedId);
    const distance = guesses[0] === undefined ? Number.POSITIVE_INFINITY : editDistance(typedId, guesses[0]);
    if (guesses.length && (!best || distance < best.distance)) best = { n, distance, guesses };
  }
  if (best)
    return {
      code: 'unknown_command',
      message: `No command \`assay ${words.slice(0, best.n).join(' ')}\`.`,
      suggestions: [
        ...best.guesses.map((c) => `Did you mean \`${shown(c)}\`?`),
        '`assay --help` lists the commands.',
      ],
    };
  return {
    code: 'unknown_command',
    message: `No command \`assay ${typed.join(' ')}\`.`,
    suggestions: ['`assay --help` lists the commands.'],
  };
}
