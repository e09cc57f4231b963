"""Independent reference implementation of the PREVENT equations (Khan 2024), base and add-on variants, for
cross-checking assay's TypeScript implementation. Coefficients: martingmayer/preventr R/sysdata.rda (tables
<variant>_10yr and <variant>_30yr), read with rds.py; terms as preventr R/estimate_risk.R prep_terms() builds
them; variant chosen as preventr's estimate_risk() does with model = NULL. Usage: python3 prevent_ref.py sysdata.rda"""
import json, math, sys
from rds import open_rda, pairlist, names_of

OUT = {'total_cvd': 'totalCvd', 'ascvd': 'ascvd', 'heart_failure': 'heartFailure'}

def load(path):
    top = pairlist(open_rda(path))
    tabs = {}
    for name, df in top.items():
        if not (name.endswith('_10yr') or name.endswith('_30yr')): continue
        cols = {c: col['v'] for c, col in zip(names_of(df), df['v'])}
        tabs[name] = cols
    return tabs

def terms(p):
    """p: dict age, sex, tc, hdl (mg/dL), sbp, bp_tx, statin, dm, smoking, egfr, bmi, hba1c?, uacr?, sdi?"""
    mmol = lambda x: x * 0.02586
    age = (p['age'] - 55) / 10
    non_hdl = mmol(p['tc'] - p['hdl']) - 3.5
    hdl = (mmol(p['hdl']) - 1.3) / 0.3
    sbp_lt = (min(p['sbp'], 110) - 110) / 20
    sbp_gte = (max(p['sbp'], 110) - 130) / 20
    dm = 1 if p['dm'] else 0
    smk = 1 if p['smoking'] else 0
    bmi_lt = (min(p['bmi'], 30) - 25) / 5
    bmi_gte = (max(p['bmi'], 30) - 30) / 5
    eg_lt = (min(p['egfr'], 60) - 60) / -15
    eg_gte = (max(p['egfr'], 60) - 90) / -15
    bp = 1 if p['bp_tx'] else 0
    st = 1 if p['statin'] else 0
    v = [age, age * age, non_hdl, hdl, sbp_lt, sbp_gte, dm, smk, bmi_lt, bmi_gte, eg_lt, eg_gte, bp, st,
         bp * sbp_gte, st * non_hdl, age * non_hdl, age * hdl, age * sbp_gte, age * dm, age * smk, age * bmi_gte,
         age * eg_lt]
    names = ['age', 'age_sq', 'nonhdl', 'hdl', 'sbp_lt', 'sbp_gte', 'dm', 'smk', 'bmi_lt', 'bmi_gte', 'eg_lt',
             'eg_gte', 'bp', 'st', 'bp_sbp', 'st_nonhdl', 'age_nonhdl', 'age_hdl', 'age_sbp', 'age_dm', 'age_smk',
             'age_bmi', 'age_eg']
    t = dict(zip(names, v))
    sdi, hba1c, uacr = p.get('sdi'), p.get('hba1c'), p.get('uacr')
    t['sdi_4_6'] = 1 if sdi is not None and 4 <= sdi <= 6 else 0
    t['sdi_7_10'] = 1 if sdi is not None and 7 <= sdi <= 10 else 0
    t['sdi_miss'] = 1 if sdi is None else 0
    t['ln_uacr'] = math.log(uacr) if uacr is not None else 0
    t['uacr_miss'] = 1 if uacr is None else 0
    t['hba1c_dm'] = hba1c - 5.3 if hba1c is not None and dm == 1 else 0
    t['hba1c_nodm'] = hba1c - 5.3 if hba1c is not None and dm == 0 else 0
    t['hba1c_miss'] = 1 if hba1c is None else 0
    t['const'] = 1
    return t

ROW = {'Age, 10 years': 'age', 'Age, per 10 years': 'age', 'Age squared': 'age_sq', 'non-HDL-C per 1 mmol/L': 'nonhdl',
       'HDL-C per 0.3 mmol/L': 'hdl', 'SBP <110 per 20 mmHg': 'sbp_lt', 'SBP ≥110 per 20 mmHg': 'sbp_gte',
       'Diabetes': 'dm', 'Current smoking': 'smk', 'BMI <30, per 5 kg/m2': 'bmi_lt', 'BMI 30+, per 5 kg/m2': 'bmi_gte',
       'eGFR <60, per -15 ml': 'eg_lt', 'eGFR 60+, per -15 ml': 'eg_gte', 'Anti-hypertensive use': 'bp',
       'Statin use': 'st', 'Treated SBP ≥110 mm Hg per 20 mm Hg': 'bp_sbp', 'Treated non-HDL-C': 'st_nonhdl',
       'Age per 10yr * non-HDL-C per 1 mmol/L': 'age_nonhdl', 'Age per 10yr * HDL-C per 0.3 mmol/L': 'age_hdl',
       'Age per 10yr * SBP ≥110 mm Hg per 20 mmHg': 'age_sbp', 'Age per 10yr * diabetes': 'age_dm',
       'Age per 10yr * current smoking': 'age_smk', 'Age per 10yr * BMI 30+ per 5 kg/m2': 'age_bmi',
       'Age per 10yr * eGFR <60, per -15 ml': 'age_eg', 'SDI decile categories 4-6 vs. 1-3': 'sdi_4_6',
       'SDI decile categories 7-10 vs. 1-3': 'sdi_7_10', 'Missing SDI': 'sdi_miss',
       'ln-ACR, mg/g, per 1 ln unit': 'ln_uacr', 'Missing ACR/PCR/Dipstick': 'uacr_miss',
       'HbA1c in DM, per 1%': 'hba1c_dm', 'HbA1c no DM, per 1%': 'hba1c_nodm', 'Missing HbA1c': 'hba1c_miss',
       'Constant': 'const'}

def variant(p):
    n = sum(p.get(k) is not None for k in ('hba1c', 'uacr', 'sdi'))
    if n == 0: return 'base'
    if n >= 2: return 'full'
    return 'hba1c' if p.get('hba1c') is not None else 'uacr' if p.get('uacr') is not None else 'sdi'

def risk(tabs, p, outcome, horizon):
    v = variant(p)
    tab = tabs[f'{v}_{horizon}']
    col = tab[f"{p['sex']}_{outcome}"]
    t = terms(p)
    lo = sum(c * t[ROW[name]] for name, c in zip(tab['beta_coefficients'], col))
    return v, 1 / (1 + math.exp(-lo))

if __name__ == '__main__':
    tabs = load(sys.argv[1])
    ex = dict(age=50, tc=200, hdl=45, sbp=160, bp_tx=True, statin=False, dm=True, smoking=False, egfr=90, bmi=35)
    for add in [{}, {'uacr': 40}, {'hba1c': 7.5}, {'sdi': 8}, {'uacr': 40, 'hba1c': 7.5, 'sdi': 8}, {'uacr': 40, 'hba1c': 7.5}]:
        print(add, [round(risk(tabs, {**ex, **add, 'sex': s}, 'total_cvd', '10yr')[1], 4) for s in ('female', 'male')])
