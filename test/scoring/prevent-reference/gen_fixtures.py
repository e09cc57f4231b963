import json, random
from prevent_ref import load, risk, variant
import sys
tabs = load(sys.argv[1])
rng = random.Random(2026031)
profiles = []
addon_sets = [(), ('hba1c',), ('uacr',), ('sdi',), ('hba1c', 'uacr'), ('hba1c', 'sdi'), ('uacr', 'sdi'), ('hba1c', 'uacr', 'sdi')]
for i in range(64):
    sex = 'female' if i % 2 == 0 else 'male'
    add = addon_sets[(i // 2) % len(addon_sets)]
    tc = round(rng.uniform(130, 320), 1)
    hdl = round(rng.uniform(20, min(100, tc - 20)), 1)
    p = dict(sex=sex, age=round(rng.uniform(30, 79.9), 2), tc=tc, hdl=hdl,
             sbp=round(rng.uniform(90, 200), 1), bp_tx=rng.random() < 0.4, statin=rng.random() < 0.3,
             dm=rng.random() < 0.3, smoking=rng.random() < 0.25, egfr=round(rng.uniform(15, 140), 1),
             bmi=round(rng.uniform(18.5, 39.9), 1))
    if 'hba1c' in add: p['hba1c'] = round(rng.uniform(3, 15), 2)
    if 'uacr' in add: p['uacr'] = round(10 ** rng.uniform(-1, 4.39), 3)
    if 'sdi' in add: p['sdi'] = rng.randint(1, 10)
    exp = {'variant': variant(p)}
    for o, key in (('total_cvd', 'totalCvd'), ('ascvd', 'ascvd'), ('heart_failure', 'heartFailure')):
        exp[key] = [risk(tabs, p, o, '10yr')[1], risk(tabs, p, o, '30yr')[1] if int(p['age']) <= 59 else None]
    profiles.append({'inputs': p, 'expected': exp})
out = {
  'about': 'PREVENT (Khan 2024) 10- and 30-year risks of 64 profiles, 8 for each combination of the optional inputs (none; HbA1c; UACR; SDI; each pair; all three), inputs drawn at random (seed 2026031) inside the published ranges, eGFR given directly. Expected values computed here by an independent implementation in Python (test/scoring/prevent-reference/prevent_ref.py): its coefficients read straight out of martingmayer/preventr R/sysdata.rda (tables <variant>_10yr, <variant>_30yr) by its own R-serialisation reader (rds.py), its terms as preventr R/estimate_risk.R prep_terms() builds them, its variant chosen as preventr estimate_risk() does with model = NULL. No precomputed validation table with the add-on variants was found in a public repository beyond the Table S12 examples (test/scoring/prevent.test.ts). The 30-year risk is null from age 60 (completed years). Run: python3 test/scoring/prevent-reference/gen_fixtures.py <preventr R/sysdata.rda> test/scoring/prevent-addon-fixtures.json (from test/scoring/prevent-reference, so that its imports resolve: cd there, or PYTHONPATH).',
  'profiles': profiles,
}
json.dump(out, open(sys.argv[2], 'w'), indent=1)
print(len(profiles), sum(1 for p in profiles if p['expected']['variant']=='full'))
