import { ModelInputError } from './errors.js';
import type { EventInputs } from './inputs.js';
import type { ModelSpec } from './spec.js';
import type { ModelNotComputed, ModelOutput } from './types.js';

export interface Computed<T, R> {
  inputs: T;
  result: R;
  used: string[];
}

/**
 * The models computed for one event. A model either computes (its output goes into `models`) or is
 * recorded in `notComputed` with the inputs it lacked or the range it was outside; it never throws past
 * here, so one missing or out-of-range input costs one model, not the event.
 */
export class ModelRun {
  readonly models: Record<string, ModelOutput> = {};
  readonly notComputed: Record<string, ModelNotComputed> = {};
  /** For each model out of range: the model parameter outside its range ('age', 'hdl'). */
  readonly outOfRange: Record<string, string> = {};

  constructor(private readonly ev: EventInputs) {}

  /**
   * Computes a model once per event (a later call returns the first outcome). `standIn`: the spec stands
   * in for another model under the same id (a reported eGFR): failing, it records nothing.
   */
  attempt<T, R>(spec: ModelSpec<T, R>, opts: { standIn?: boolean } = {}): Computed<T, R> | null {
    const gathered = spec.gather(this.ev);
    if (!gathered.ok) {
      if (!opts.standIn)
        this.notComputed[spec.id] = {
          status: 'missing_inputs',
          inputs_missing: [...new Set(gathered.missing)],
        };
      return null;
    }
    try {
      const result = spec.compute(gathered.inputs);
      this.models[spec.id] = spec.output(result);
      if (opts.standIn) delete this.notComputed[spec.id];
      return { inputs: gathered.inputs, result, used: [...new Set(gathered.used)] };
    } catch (err) {
      if (!(err instanceof ModelInputError)) throw err;
      if (opts.standIn) return null;
      this.notComputed[spec.id] = { status: 'out_of_range', reason: err.message };
      this.outOfRange[spec.id] = err.input;
      return null;
    }
  }

  /** Inputs lacked by the given models that were not computed for lack of inputs. */
  missing(ids: readonly string[]): string[] {
    const missing = new Set<string>();
    for (const id of ids) for (const name of this.notComputed[id]?.inputs_missing ?? []) missing.add(name);
    return [...missing];
  }
}
