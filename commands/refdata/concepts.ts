import { EngineCommand } from '../../src/cli/engine-command.js';
import { formatsSee } from '../../src/cli/help.js';
import { renderTable } from '../../src/cli/table.js';
import { openRefdataStore } from '../../src/refdata/open-store.js';
import type { RefdataConceptsOutput } from '../../src/schemas/cli/refdata.js';

export default class RefdataConcepts extends EngineCommand<typeof RefdataConcepts> {
  static override summary = 'List the biomarker concept catalogue (the reference data entries).';
  static override description = [
    'With --json: an array of concepts {concept_id, concept_name, concept_code (LOINC), pref_ucum_unit, vocabulary_id, concept_class_id, domain_id, standard_concept, start_dtutc, end_dtutc, ...}. Until `assay refdata sync` has run, the dataset bundled with assay is read.',
    formatsSee('Reference data'),
  ].join('\n\n');
  static override examples = [
    '<%= config.bin %> refdata concepts',
    '<%= config.bin %> refdata concepts --json',
  ];

  async run(): Promise<RefdataConceptsOutput> {
    const store = await openRefdataStore(this.storeTarget);
    try {
      const concepts = await store.concepts();
      this.log(
        renderTable(
          ['CONCEPT_ID', 'CODE', 'UNIT', 'NAME'],
          concepts.map((c) => [c.concept_id, c.concept_code, c.pref_ucum_unit, c.concept_name]),
        ),
      );
      return concepts;
    } finally {
      await store.close();
    }
  }
}
