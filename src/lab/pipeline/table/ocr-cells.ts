/**
 * How a scanned cell is placed and cleaned before it is read: by its box rather than its left edge (a
 * scan's labels are centred and its edges drift with skew), with the specks a scan adds before a name
 * taken off. Text-layer cells keep their exact edges and are placed by them.
 */
import type { Cell } from '../pdf/layout.js';
import { type ColumnRole, roleAt, roleOfSpan, type TableHeader } from './header.js';

/** OCR'd cells by the column their box overlaps most (roleOfSpan); text-layer cells by their left edge. */
export function columnOf(cell: Cell, header: TableHeader): ColumnRole {
  return isOcrCell(cell) ? roleOfSpan(cell.x, cell.right, header) : roleAt(cell.x, header);
}

/** Left of the first result column: for an OCR'd cell, most of its box. */
export function inNameSpan(cell: Cell, header: TableHeader): boolean {
  if (!isOcrCell(cell)) return cell.x < header.dataStart;
  return header.dataStart - cell.x >= cell.right - header.dataStart;
}

/** One or two characters alone in a scan's unit column: no flag or value is printed there. */
export const SPECK_IN_UNIT = /^[\p{L}\d]{1,2}$/u;

/**
 * A scan's name with marks read before its first letter ("€>olymorphs", "“lateletcrit"): a punch hole,
 * a stamp's edge or a smudge in the margin. Only a few marks, and only where letters follow.
 */
const SPECK_MARKS = /^[^\p{L}\p{Nd}%(\s]{1,3}(?=\p{L}{3})/u;

export function withoutSpeckMarks(cell: Cell): Cell {
  return SPECK_MARKS.test(cell.text) ? { ...cell, text: cell.text.replace(SPECK_MARKS, '') } : cell;
}

export const isOcrCell = (cell: Cell): cell is Cell & { right: number } =>
  cell.confidence !== undefined && cell.right !== undefined;
