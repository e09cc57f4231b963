import type { Area } from './area.js';
import { labArea } from './areas/lab.js';
import { refdataArea } from './areas/refdata.js';
import { reportsArea } from './areas/reports.js';
import { reviewArea } from './areas/review.js';

/** Every SPEC.md area the server exposes; each lands here as its routes are built. */
export const AREAS: Area[] = [labArea, reportsArea, refdataArea, reviewArea];
