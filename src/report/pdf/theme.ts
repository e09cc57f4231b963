/** The report's look in one place: page geometry, type scale and colours (print-safe, colour-blind-aware). */

export const PAGE = { size: 'LETTER', width: 612, height: 792, margin: 48 } as const;
export const CONTENT_WIDTH = PAGE.width - 2 * PAGE.margin;
/** The footer sits inside the bottom margin, so body text never has to avoid it. */
export const FOOTER_Y = PAGE.height - 34;

export const FONT = {
  regular: 'Helvetica',
  bold: 'Helvetica-Bold',
  italic: 'Helvetica-Oblique',
} as const;

export const SIZE = {
  title: 24,
  heading: 15,
  subheading: 11,
  body: 9.5,
  small: 8,
  tiny: 6.5,
  hero: 40,
} as const;

export const COLOR = {
  ink: '#1d2433',
  muted: '#5d6677',
  faint: '#9aa3b2',
  rule: '#dfe3ea',
  panel: '#f4f6f9',
  brand: '#17325c',
  brandLight: '#e8eef7',
  good: '#1b7f5a',
  goodLight: '#d9f0e5',
  warn: '#b7791f',
  warnLight: '#fbefd9',
  bad: '#b83232',
  white: '#ffffff',
} as const;

/** One colour per domain, stable across charts and cards. */
export const DOMAIN_COLOR = {
  overall: '#17325c',
  cardiovascular: '#c2410c',
  metabolic: '#7c3aed',
  kidney: '#0e7490',
  liver: '#4d7c0f',
} as const;

/** Score bands: a score reads at a glance as good, fair or needing attention. */
export function scoreColor(score: number | null): string {
  if (score === null) return COLOR.faint;
  if (score >= 80) return COLOR.good;
  if (score >= 50) return COLOR.warn;
  return COLOR.bad;
}
