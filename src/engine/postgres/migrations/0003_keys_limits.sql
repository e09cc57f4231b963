-- API keys and rate-limit counters, shared by every node (src/server/postgres-key-store.ts,
-- src/server/postgres-limit-store.ts); the same tables as the SQLite store
-- (src/engine/sqlite/migrations/0003_api_keys.sql, 0004_rate_limits.sql). Only a hash of each key is kept.
-- webhook_secret is sealed (AES-256-GCM) with keys/webhook-secrets.key of the nodes' homes, which is never
-- in the database: a copy of the database alone does not give the secrets away.
CREATE TABLE api_keys (
  id             text PRIMARY KEY,
  name           text NOT NULL,
  key_hash       text NOT NULL UNIQUE,
  webhook_secret text NOT NULL,
  created_at     bigint NOT NULL,
  revoked_at     bigint
);

-- Fixed-window request counters per API key. Uploads take their unit with one conditional upsert, so the
-- hourly limit holds across nodes; cheap routes add their counted hits every quarter second.
CREATE TABLE rate_counters (
  bucket       text NOT NULL,
  subject      text NOT NULL,
  window_start bigint NOT NULL,
  count        integer NOT NULL,
  PRIMARY KEY (bucket, subject, window_start)
);
-- Old windows are pruned by age.
CREATE INDEX rate_counters_window ON rate_counters (window_start);
