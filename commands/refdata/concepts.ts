import { BaseCommand } from '../../src/cli/base-command.js';
import { formatsSee } from '../../src/cli/help.js';
import { renderTable } from '../../src/cli/table.js';
import { openDatabase } from '../../src/engine/sqlite/open-database.js';
import { RefdataStore } from '../../src/refdata/store.js';
import type { Concept } from '../../src/schemas/refdata.js';

export default class RefdataConcepts extends BaseCommand<typeof RefdataConcepts> {
  static override summary = 'List the biomarker concept catalogue (the reference data entries).';
  static override description = [
    'With --json: an array of concepts {concept_id, concept_name, concept_code (LOINC), pref_ucum_unit, vocabulary_id, concept_class_id, domain_id, standard_concept, start_dtutc, end_dtutc, ...}. Until `assay refdata sync` has run, the dataset bundled with assay is read.',
    formatsSee('Reference data'),
  ].join('\n\n');
  static override examples = [
    '<%= config.bin %> refdata concepts',
    '<%= config.bin %> refdata concepts --json',
  ];

  async run(): Promise<Concept[]> {
    const db = openDatabase(this.home);
    try {
      const concepts = new RefdataStore(db).concepts();
      this.log(
        renderTable(
          ['CONCEPT_ID', 'CODE', 'UNIT', 'NAME'],
          concepts.map((c) => [c.concept_id, c.concept_code, c.pref_ucum_unit, c.concept_name]),
        ),
      );
      return concepts;
    } finally {
      db.close();
    }
  }
}
