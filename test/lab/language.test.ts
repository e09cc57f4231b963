import { describe, expect, it } from 'vitest';
import { extractLayout } from '../../src/lab/pipeline/pdf/pdf-text.js';
import { classifyLines, detectLanguage } from '../../src/lab/pipeline/screen/language.js';
import { manifest, pdfBytes } from './fixture-files.js';

const readable = manifest().filter((e) => !['scanned-no-text', 'corrupt-truncated'].includes(e.name));

describe('detectLanguage on the fixtures', () => {
  it.each(readable.map((e) => [e.name, e.name === 'reject-spanish']))(
    '%s (quarantine: %s)',
    async (name, foreign) => {
      const verdict = detectLanguage(await extractLayout(pdfBytes(name as string)));
      expect(verdict.english).toBe(!foreign);
      expect(verdict.language).toBe(foreign ? 'spa' : 'eng');
    },
  );
});

describe('classifyLines', () => {
  it("reads a scan's English test names as English when its OCR scraps lean the trigrams to French", () => {
    const names = ['Haemoglobin 13.9 g/dL', 'White Cell Count 5.9', 'Neutrophils 57 %', 'Lymphocytes 34 %'];
    const more = ['Monocytes 05 %', 'Eosinophils 04 %', 'Platelet Count 139', 'Complete Blood Count'];
    const cells = ['Mean Cell Volume', 'Red Cell Count', 'Packed Cell Volume'];
    // What OCR makes of a stamp, a logo and a crease: short scraps, some of them French words.
    const scraps = [
      'le pe ee ae rete une dans les ete ee',
      'ete toute la pe tes rue de ee etat',
      'sur les de ete ae pe une pour le dans',
      'ee te les au du ete pe se le ta ne',
    ];
    expect(classifyLines([...names, ...more, ...cells, ...scraps])).toMatchObject({ english: true });
    // The same scraps beside Spanish test names stay non-English.
    const spanish = [
      'Hemoglobina 13.9',
      'Leucocitos 5.9',
      'Neutrófilos 57 %',
      'Linfocitos 34 %',
      'Plaquetas 139',
    ];
    expect(classifyLines([...spanish, ...scraps])).toMatchObject({ english: false });
  });

  it('claims no language for a table of numbers, and lets it through', () => {
    const verdict = classifyLines(['92 70-99', '1.17 0.76-1.27', '140 134-144', '03/14/2025', 'mg/dL 4.7']);
    expect(verdict).toMatchObject({ language: 'und', english: true });
  });

  it('claims no language for a very short text, whatever it says', () => {
    expect(classifyLines(['Resultados de laboratorio'])).toMatchObject({ language: 'und', english: true });
  });

  it('decides on the prose when there is enough of it, not on the test names', () => {
    const verdict = classifyLines([
      'GLUCOSA | 92 | mg/dL',
      'CREATININA | 0.78 | mg/dL',
      'Please discuss these results with the provider who ordered the tests for you.',
      'Reference ranges are for adults and were established by the laboratory that performed the test.',
      'Results flagged H or L fall outside the reference range for this laboratory and should be reviewed.',
    ]);
    expect(verdict).toMatchObject({ language: 'eng', english: true });
  });

  it('keeps an English report English when a short disclaimer is in Spanish', () => {
    const verdict = classifyLines([
      'The eGFR is calculated with the CKD-EPI 2021 creatinine equation, which does not use race.',
      'For someone without known diabetes, a value of 5.7-6.4% is consistent with prediabetes.',
      'Please discuss these results with the provider who ordered the tests and keep this report.',
      'Results flagged high or low fall outside the reference range established by the laboratory.',
      'Este informe es confidencial.',
    ]);
    expect(verdict.english).toBe(true);
  });

  it('quarantines French prose', () => {
    const verdict = classifyLines([
      'Les résultats de ce rapport doivent être interprétés par votre médecin traitant.',
      'Les valeurs de référence correspondent à une population adulte en bonne santé.',
      "L'échantillon a été reçu dans de bonnes conditions et analysé le jour même de sa réception.",
    ]);
    expect(verdict).toMatchObject({ language: 'fra', english: false });
  });

  it('decides on all the words of a document with little prose', () => {
    const verdict = classifyLines([
      'Prueba Resultado Unidades Valores de referencia',
      'Glucosa en ayuno 92 mg/dL',
      'Colesterol total 188 mg/dL Menor de 200',
      'Triglicéridos 131 mg/dL Menor de 150',
      'Examen general de orina Amarillo Negativo',
    ]);
    expect(verdict.english).toBe(false);
  });
});
