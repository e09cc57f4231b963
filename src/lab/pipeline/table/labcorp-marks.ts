/**
 * Labcorp's raised marks after a test's name: a footnote letter and a two-digit performing-site code
 * ("A, 01"). The line views keep them apart from the name where the text layer shows them raised; these
 * are their shapes, for the readers that meet them where it does not.
 */

/** The marks at the end of a name's text, when they were not told apart from it ("... MS 05", "LDL-P A, 01"). */
export const TRAILING_MARKS = /\s+(?:[A-Z],\s*)?\d{2}$/;

/** One mark standing alone: the footnote letter with its comma, or the site code ("A,", "04"). */
export const MARK = /^(?:[A-Z],|\d{2},?)$/;
