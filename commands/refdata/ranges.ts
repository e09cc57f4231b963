import { Flags } from '@oclif/core';
import { EngineCommand } from '../../src/cli/engine-command.js';
import { formatsSee } from '../../src/cli/help.js';
import { renderTable } from '../../src/cli/table.js';
import { UsageError } from '../../src/errors.js';
import { openRefdataStore } from '../../src/refdata/open-store.js';
import { rangeRows } from '../../src/refdata/present.js';
import { rangeSex, SEX_WORDS } from '../../src/refdata/range-filter.js';
import type { RefdataRangesOutput } from '../../src/schemas/cli/refdata.js';

export default class RefdataRanges extends EngineCommand<typeof RefdataRanges> {
  static override summary = 'Laboratory reference ranges, optionally for one sex and one vendor.';
  static override description = [
    'With --json: an array of lab ranges {lab_range_id, concept_id, concept_code, concept_name, vendor_name, gender_name, min_value, min_value_operator, min_value_display, max_value, max_value_operator, max_value_display, bmi_min, bmi_max, menstrual_cycle}.',
    formatsSee('Reference data'),
  ].join('\n\n');
  static override examples = [
    '<%= config.bin %> refdata ranges --sex female',
    '<%= config.bin %> refdata ranges --vendor "Quest Diagnostics" --json',
    '<%= config.bin %> refdata ranges --vendor quest --sex F',
  ];

  static override flags = {
    sex: Flags.string({ description: `Only ranges for this sex: ${SEX_WORDS}.` }),
    vendor: Flags.string({
      description:
        'Only ranges of this lab vendor, any case: Quest Diagnostics (or Quest), Labcorp (or LabCorp).',
    }),
  };

  async run(): Promise<RefdataRangesOutput> {
    if (this.flags.sex !== undefined && !rangeSex(this.flags.sex))
      throw new UsageError(`--sex must be ${SEX_WORDS}.`, ['assay refdata ranges --sex female']);
    const store = await openRefdataStore(this.storeTarget);
    try {
      const ranges = await store.labRanges({ sex: this.flags.sex, vendor: this.flags.vendor });
      if (ranges.length === 0) this.log('No lab ranges match.');
      else this.log(renderTable(['ID', 'VENDOR', 'SEX', 'CODE', 'RANGE', 'NAME'], rangeRows(ranges)));
      return ranges;
    } finally {
      await store.close();
    }
  }
}
