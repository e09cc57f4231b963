import type { CategoricalInput, NumericInput } from './input-codes.js';
import type { EventInputs } from './inputs.js';
import type { Sex } from './types.js';
import { ucumFactor } from './units.js';

/**
 * How a model spec collects its inputs from an event (inputs in the units of data/scoring/input-codes.json):
 * the model's inputs and the input names used, or the names missing.
 */
export type Gathered<T> = { ok: true; inputs: T; used: string[] } | { ok: false; missing: string[] };

export type InputName = NumericInput | CategoricalInput | 'age';

/** Kidney function for PREVENT: serum creatinine (eGFR by CKD-EPI 2021 inside the model) or a reported eGFR. */
export type KidneyInput = { creatinineMgDl: number } | { egfr: number };

/**
 * The albumin/creatinine ratio in mg/g from a spot urine's albumin (mg/L) and creatinine (mg/dL), the units of
 * data/scoring/input-codes.json: albumin / (creatinine in mg/L) is mg albumin per mg creatinine, x 1000 per g.
 */
export function uacrOf(albuminMgL: number, creatinineMgDl: number): number {
  const creatinineMgL = creatinineMgDl * ucumFactor('mg/dL', 'mg/L');
  return (albuminMgL / creatinineMgL) * ucumFactor('mg/mg', 'mg/g');
}

/** Collects required inputs, remembering which are missing, so every spec reports all gaps at once. */
export class Gather {
  readonly used: InputName[] = [];
  readonly missing: InputName[] = [];
  constructor(private readonly ev: EventInputs) {}

  num(name: NumericInput): number {
    const value = this.ev.numeric[name];
    if (value === undefined) {
      this.missing.push(name);
      return Number.NaN;
    }
    this.used.push(name);
    return value;
  }

  optionalNum(name: NumericInput): number | undefined {
    const value = this.ev.numeric[name];
    if (value !== undefined) this.used.push(name);
    return value;
  }

  category(name: CategoricalInput): string {
    const value = this.ev.categorical[name];
    if (value === undefined) {
      this.missing.push(name);
      return '';
    }
    this.used.push(name);
    return value;
  }

  flag(name: CategoricalInput): boolean {
    return this.category(name) === 'true';
  }

  /** A yes/no input that refines a model when known and is not missing when absent. */
  optionalFlag(name: CategoricalInput): boolean | undefined {
    const value = this.ev.categorical[name];
    if (value === undefined) return undefined;
    this.used.push(name);
    return value === 'true';
  }

  /**
   * Kidney function for PREVENT: creatinine (eGFR by CKD-EPI 2021 inside the model), else the lab's reported
   * CKD-EPI 2021 eGFR; with neither, creatinine is reported missing.
   */
  kidney(): KidneyInput {
    const creatinine = this.ev.numeric.creatinine;
    if (creatinine !== undefined) {
      this.used.push('creatinine');
      return { creatinineMgDl: creatinine };
    }
    const reported = this.ev.numeric.egfr_ckd_epi_2021_reported;
    if (reported !== undefined) {
      this.used.push('egfr_ckd_epi_2021_reported');
      return { egfr: reported };
    }
    this.missing.push('creatinine');
    return { egfr: Number.NaN };
  }

  /** A category that refines a model when known and is not missing when absent. */
  optionalCategory(name: CategoricalInput): string | undefined {
    const value = this.ev.categorical[name];
    if (value !== undefined) this.used.push(name);
    return value;
  }

  /**
   * Urine albumin/creatinine ratio in mg/g, optional: the ratio the lab printed, else computed from the urine
   * albumin and urine creatinine of the event (uacrOf). Undefined when neither is there; nothing is missing.
   */
  optionalUacr(): number | undefined {
    const printed = this.ev.numeric.uacr;
    if (printed !== undefined) {
      this.used.push('uacr');
      return printed;
    }
    const albumin = this.ev.numeric.urine_albumin;
    const creatinine = this.ev.numeric.urine_creatinine;
    if (albumin === undefined || creatinine === undefined) return undefined;
    this.used.push('urine_albumin', 'urine_creatinine');
    return uacrOf(albumin, creatinine);
  }

  sex(): Sex {
    return this.category('sex') as Sex;
  }

  age(): number {
    this.used.push('age');
    return this.ev.ageYears;
  }

  done<T>(inputs: T): Gathered<T> {
    return this.missing.length > 0
      ? { ok: false, missing: this.missing }
      : { ok: true, inputs, used: this.used };
  }
}
