import { readFile } from 'node:fs/promises';
import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../../src/cli/base-command.js';
import { formatsSee } from '../../src/cli/help.js';
import { renderTable } from '../../src/cli/table.js';
import { UsageError } from '../../src/errors.js';
import type { LabMapOutput } from '../../src/schemas/cli/lab.js';
import { createLlmClient } from '../../src/terminology/llm.js';
import { type MappedName, mapTestName, parseNameList } from '../../src/terminology/loinc-map-list.js';

export default class LabMap extends BaseCommand<typeof LabMap> {
  static override summary = 'Map printed lab test names to LOINC (and their units to UCUM).';
  static override description = [
    'Offline by default: catalogue names and synonyms checked against unit and panel, then a lexical fuzzy ' +
      'matcher. With ASSAY_LLM_URL set, names the offline tiers cannot place are asked of that endpoint, and ' +
      'only catalogue codes with a valid check digit are accepted from it.',
    'With --json: {name, unit, panel, loinc: {loincCode, loincMatchType, loincMatcher?, score?, longName?}, ' +
      'ucum?: {ucumCode, ucumMatchMethod}}, an array of them with --file (a CSV file, columns name[,unit]).',
    formatsSee('Lab map'),
  ].join('\n\n');

  static override examples = [
    '<%= config.bin %> lab map "LDL-CHOLESTEROL" --unit "mg/dL (calc)"',
    '<%= config.bin %> lab map GLUCOSE --panel "URINALYSIS, COMPLETE" --json',
    '<%= config.bin %> lab map --file names.csv',
  ];

  static override args = {
    name: Args.string({ description: 'Test name as printed on the report.' }),
  };

  static override flags = {
    unit: Flags.string({ description: 'Unit as printed next to the result.' }),
    panel: Flags.string({ description: 'Panel title the test is printed under.' }),
    file: Flags.string({
      description: 'CSV file of names to map, columns name[,unit].',
      exclusive: ['unit'],
    }),
  };

  async run(): Promise<LabMapOutput> {
    const llm = createLlmClient();
    const panel = this.flags.panel ?? null;
    if (this.flags.file) {
      const rows = parseNameList(await this.readNames(this.flags.file));
      const mapped: MappedName[] = [];
      for (const row of rows) mapped.push(await mapTestName(row, panel, llm));
      this.log(
        renderTable(['NAME', 'UNIT', 'LOINC', 'MATCH', 'SCORE', 'UCUM', 'LONG NAME'], mapped.map(tableRow)),
      );
      return mapped;
    }
    const name = this.args.name;
    if (!name)
      throw new UsageError('Give a test name, or --file with a list of names.', ['assay lab map GLUCOSE']);
    const mapped = await mapTestName({ name, unit: this.flags.unit ?? null }, panel, llm);
    for (const [label, value] of describe(mapped)) this.log(`${label.padEnd(10)} ${value}`);
    return mapped;
  }

  private async readNames(file: string): Promise<string> {
    try {
      return await readFile(file, 'utf8');
    } catch {
      throw new UsageError(`Cannot read names file ${file}`, [
        'check the path; the file is CSV with name[,unit]',
      ]);
    }
  }
}

function matchLabel(m: MappedName): string {
  const { loincMatchType, loincMatcher } = m.loinc;
  return loincMatcher ? `${loincMatchType} (${loincMatcher})` : loincMatchType;
}

function tableRow(m: MappedName): Array<string | number | null | undefined> {
  return [
    m.name,
    m.unit,
    m.loinc.loincCode,
    matchLabel(m),
    m.loinc.score,
    m.ucum?.ucumCode,
    m.loinc.longName,
  ];
}

function describe(m: MappedName): Array<[string, string]> {
  const lines: Array<[string, string]> = [
    ['loinc', m.loinc.loincCode ?? '-'],
    ['match', matchLabel(m)],
  ];
  if (m.loinc.score !== undefined) lines.push(['score', String(m.loinc.score)]);
  if (m.loinc.longName) lines.push(['long name', m.loinc.longName]);
  if (m.ucum) lines.push(['ucum', `${m.ucum.ucumCode ?? '-'} (${m.ucum.ucumMatchMethod})`]);
  return lines;
}
