/**
 * oclif's `postrun` hook: once @oclif/plugin-autocomplete has written its completion scripts (`assay
 * autocomplete [bash|zsh]`, or its refresh after a plugin install), add flag values to them
 * (src/cli/completion.ts). Any other command returns at once, without loading the completion module. A
 * failure leaves the plugin's scripts as they are (completion without values) with a warning.
 */
import type { Hook } from '@oclif/core';

const WRITERS = new Set(['autocomplete', 'autocomplete:create']);

const hook: Hook<'postrun'> = async ({ Command, config }) => {
  if (!WRITERS.has(Command.id)) return;
  const { extendCompletionScripts } = await import('../completion.js');
  try {
    await extendCompletionScripts(config);
  } catch (error) {
    // The plugin's completion still works, without values: say so rather than fail the command.
    if ((error as { code?: string }).code === 'ENOENT') return;
    process.stderr.write(`Warning: flag values not added to shell completion: ${(error as Error).message}\n`);
  }
};

export default hook;
