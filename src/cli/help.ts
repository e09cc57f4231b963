/**
 * Pointers from command help to the format reference shipped in the package (docs/formats.md). oclif renders
 * help text as a template, so `config.root` becomes the installed package's folder and the path printed is
 * one the user can open.
 */
export const FORMATS_DOC = '<%= config.root %>/docs/formats.md';

/** A pointer to one section of docs/formats.md, as the last paragraph of a command's description. */
export function formatsSee(section: string): string {
  return `Formats, with examples: "${section}" in ${FORMATS_DOC}`;
}
