/**
 * Shell completion of flag values, on top of @oclif/plugin-autocomplete. The plugin's zsh script completes
 * the values of flags that declare `options` (report --sex, --race, serve --log-level ...), its bash script
 * completes command and flag names only, and lists a topic once per command under it (`assay l<TAB>` offered
 * "lab lab lab"). After the plugin writes its scripts (`assay autocomplete`, hooks/completion.ts), this
 * adds to them:
 * - bash: the values of every flag with `options` or suggested values, `--flag value`, `--flag=value` and
 *   comma lists; flag names after arguments (`assay lab extract a.pdf --fo<TAB>`); each suggestion once;
 *   file names where nothing else fits;
 * - zsh: the suggested values of flags that declare no `options` because they take more than these
 *   values (any case, aliases, comma lists: oclif would refuse anything not listed).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command, Interfaces } from '@oclif/core';

type Config = Interfaces.Config;

import { FORMATS } from '../lab/output/formats.js';

/**
 * Values suggested for flags that accept more than these words and so declare no `options`: `--format`
 * takes any case and comma lists, `refdata ranges --sex` any case, `--vendor` aliases.
 */
export const SUGGESTED_VALUES: Record<string, Record<string, readonly string[]>> = {
  'lab:extract': { format: FORMATS },
  'refdata:ranges': { sex: ['female', 'male', 'F', 'M'], vendor: ['Quest', 'Labcorp'] },
};

/** The values a flag of a command completes to. */
export interface FlagValues {
  command: string;
  flag: string;
  char?: string;
  values: readonly string[];
  /** Suggested rather than declared as `options` (so the plugin's zsh script lacks them). */
  suggested: boolean;
}

interface CompletedCommand {
  id: string;
  flags: string[];
}

type Flags = Command.Loadable['flags'];

const publicCommands = (config: Config) => config.commands.filter((c) => !c.hidden);

function commandFlags(flags: Flags): string[] {
  return Object.entries(flags)
    .filter(([, f]) => !f.hidden)
    .flatMap(([name, f]) => [`--${name}`, ...(f.type === 'boolean' && f.allowNo ? [`--no-${name}`] : [])]);
}

/** Every flag with values to complete: declared `options` first, then SUGGESTED_VALUES. */
export function flagValues(config: Config): FlagValues[] {
  const out: FlagValues[] = [];
  for (const c of publicCommands(config)) {
    const suggested = SUGGESTED_VALUES[c.id] ?? {};
    for (const [name, f] of Object.entries(c.flags)) {
      if (f.hidden || f.type !== 'option') continue;
      const values = f.options ?? suggested[name];
      if (!values?.length) continue;
      out.push({
        command: c.id,
        flag: name,
        ...(f.char ? { char: f.char } : {}),
        values,
        suggested: !f.options,
      });
    }
  }
  return out;
}

const MARK = '# assay: flag values and one suggestion per topic';

/** A shell word made of safe characters only (command ids, flag names, values). */
const shellWord = (word: string) => {
  if (!/^[A-Za-z0-9_.:,+@%/-]+$/.test(word)) throw new Error(`assay: cannot complete ${word} in a shell`);
  return word;
};

/** The bash function added after the plugin's: see the module comment. */
export function bashExtension(bin: string, commands: CompletedCommand[], values: FlagValues[]): string {
  const fn = `_${shellWord(bin)}`;
  const valueCases = values.map((v) => {
    const keys = [`--${v.flag}`, ...(v.char ? [`-${v.char}`] : [])].map(
      (f) => `"${shellWord(v.command)} ${shellWord(f)}"`,
    );
    return `    ${keys.join('|')}) echo "${v.values.map(shellWord).join(' ')}" ;;`;
  });
  const flagCases = commands.map(
    (c) => `    "${shellWord(c.id)}") echo "${c.flags.map(shellWord).join(' ')}" ;;`,
  );
  return `
${MARK} (src/cli/completion.ts)
${fn}_flag_values()
{
  case "$1" in
${valueCases.join('\n')}
  esac
}

${fn}_command_flags()
{
  case "$1" in
${flagCases.join('\n')}
  esac
}

${fn}_complete()
{
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="" flag="" id="" candidate="" word i
  # The command: the longest run of leading words that names one.
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    [[ "$word" == -* ]] && break
    candidate="\${candidate:+$candidate:}$word"
    [[ -n "$(${fn}_command_flags "$candidate")" ]] && id="$candidate"
  done
  if [[ -n "$id" ]]; then
    prev="\${COMP_WORDS[COMP_CWORD-1]}"
    if [[ "$cur" == "=" ]]; then
      flag="$prev"; cur=""
    elif [[ "$prev" == "=" ]]; then
      flag="\${COMP_WORDS[COMP_CWORD-2]}"
    elif [[ "$prev" == -* ]]; then
      flag="$prev"
    fi
    if [[ -n "$flag" ]]; then
      local values prefix=""
      values="$(${fn}_flag_values "$id $flag")"
      if [[ -n "$values" ]]; then
        # A comma list (--format json,fhir): complete its last item with the values not yet in it.
        if [[ "$cur" == *,* ]]; then
          prefix="\${cur%,*},"
          local value kept=""
          for value in $values; do
            [[ ",$prefix" == *",$value,"* ]] || kept="$kept $value"
          done
          values="$kept"
        fi
        COMPREPLY=($(compgen -P "$prefix" -W "$values" -- "\${cur##*,}"))
        return
      fi
    fi
    if [[ "$cur" == -* ]]; then
      COMPREPLY=($(compgen -W "$(${fn}_command_flags "$id")" -- "$cur"))
      return
    fi
  fi
  ${fn}_autocomplete
  # Each suggestion once: the plugin lists a topic once per command under it.
  local seen=" " unique=() reply
  for reply in "\${COMPREPLY[@]}"; do
    [[ "$seen" == *" $reply "* ]] && continue
    seen="$seen$reply "
    unique+=("$reply")
  done
  COMPREPLY=("\${unique[@]}")
}

complete -o default -F ${fn}_complete ${shellWord(bin)}
`;
}

/** The plugin's bash script with bashExtension after it (once, however often this runs). */
export function extendBash(script: string, extension: string): string {
  const at = script.indexOf(`\n${MARK}`);
  return `${at === -1 ? script : script.slice(0, at)}${extension}`;
}

/**
 * The plugin's zsh script with the suggested values of flags without `options`: in the command's
 * `_arguments` block, `--flag"[summary]:file:_files"` becomes `--flag"[summary]:flag values:(a b)"`.
 * Throws when a flag is not where the plugin writes it (a new plugin version), so the test notices.
 */
export function extendZsh(script: string, bin: string, values: FlagValues[]): string {
  let out = script;
  for (const v of values.filter((x) => x.suggested)) {
    const parts = v.command.split(':');
    const sub = parts.pop() ?? '';
    const fnStart = out.indexOf(`\n_${bin}${parts.map((p) => `_${p}`).join('')}() {`);
    const caseStart =
      fnStart === -1 ? -1 : out.indexOf(parts.length ? `"${sub}")\n` : `\n${sub})\n`, fnStart);
    const caseEnd = caseStart === -1 ? -1 : out.indexOf(';;', caseStart);
    const block = caseEnd === -1 ? '' : out.slice(caseStart, caseEnd);
    const spec = new RegExp(`^(.*--${v.flag}\\}?"\\[.*\\]:)file:_files"`, 'm');
    if (!spec.test(block)) throw new Error(`assay: no zsh spec for ${v.command} --${v.flag}`);
    const replaced = block.replace(spec, `$1${v.flag} values:(${v.values.map(shellWord).join(' ')})"`);
    out = out.slice(0, caseStart) + replaced + out.slice(caseEnd);
  }
  return out;
}

/** Where the plugin writes its scripts (its AutocompleteBase: <cacheDir>/autocomplete/functions). */
export const completionFiles = (config: Config) => {
  const dir = join(config.cacheDir, 'autocomplete', 'functions');
  return { bash: join(dir, 'bash', `${config.bin}.bash`), zsh: join(dir, 'zsh', `_${config.bin}`) };
};

/** Add flag values to the scripts the plugin has just written. */
export async function extendCompletionScripts(config: Config): Promise<void> {
  const values = flagValues(config);
  const files = completionFiles(config);
  const commands = publicCommands(config).map((c) => ({ id: c.id, flags: commandFlags(c.flags) }));
  const bash = await readFile(files.bash, 'utf8');
  await writeFile(files.bash, extendBash(bash, bashExtension(config.bin, commands, values)));
  const zsh = await readFile(files.zsh, 'utf8');
  await writeFile(files.zsh, extendZsh(zsh, config.bin, values));
}
