-- The API key a job was submitted under (api_keys.id), or NULL for jobs made without a key (the CLI), as in
-- the SQLite store (src/engine/sqlite/migrations/0005_job_owner.sql). No foreign key: the keys live in the
-- node's SQLite file, and a revoked key leaves its jobs readable by the operator.
ALTER TABLE jobs ADD COLUMN owner text;

-- The fair claim (src/engine/postgres/claim.ts) skips along this index from one owner with ready jobs to the
-- next, then reads each owner's oldest due jobs in order from it.
CREATE INDEX jobs_ready_owner ON jobs (owner, run_at, created_at) WHERE state = 'ready';
-- When each owner was last served (its latest change), without reading its history.
CREATE INDEX jobs_owner_activity ON jobs (owner, updated_at);
