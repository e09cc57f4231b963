-- Reference data (SPEC.md part C), the same tables as the SQLite home's (its migration 0002). `body` keeps
-- each row's exact SPEC.md JSON as text (jsonb would reorder keys), so what a node serves is what was synced.
CREATE TABLE refdata_concepts (
  concept_id    integer PRIMARY KEY,
  concept_code  text NOT NULL,
  body          text NOT NULL
);

-- C3 entries per sex and whole year of age; position keeps the published order within a group.
CREATE TABLE refdata_predictor_stats (
  sex       text NOT NULL CHECK (sex IN ('female', 'male')),
  age       integer NOT NULL CHECK (age BETWEEN 0 AND 120),
  name      text NOT NULL,
  position  integer NOT NULL,
  body      text NOT NULL,
  PRIMARY KEY (sex, age, name)
);

-- C4 predictors; a predictor is identified by its domain and observation codes, its rank may change.
CREATE TABLE refdata_top_predictors (
  disease           text NOT NULL,
  codes             text NOT NULL,
  disease_position  integer NOT NULL,
  rank              integer NOT NULL,
  body              text NOT NULL,
  PRIMARY KEY (disease, codes)
);

-- Domains in published order, so that a domain with no ranked predictors is still listed.
CREATE TABLE refdata_top_domains (
  disease   text PRIMARY KEY,
  position  integer NOT NULL
);

CREATE TABLE refdata_lab_ranges (
  lab_range_id  integer PRIMARY KEY,
  vendor_name   text NOT NULL,
  gender_name   text NOT NULL,
  concept_code  text NOT NULL,
  body          text NOT NULL
);
CREATE INDEX refdata_lab_ranges_filter ON refdata_lab_ranges (gender_name, lower(vendor_name));

-- One row once the store has been synced; until then every node reads the dataset bundled with it. Every
-- sync rewrites it in the same transaction as the rows: nodes check this one row to see a new dataset.
CREATE TABLE refdata_meta (
  id               integer PRIMARY KEY CHECK (id = 1),
  dataset_version  text NOT NULL,
  source           text NOT NULL,
  scoring_version  text NOT NULL,
  synced_at        text NOT NULL
);
