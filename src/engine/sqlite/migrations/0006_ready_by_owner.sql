-- The fair claim ranks only each owner's first due jobs: this finds them per owner, in due order, without
-- reading the rest of a long backlog (src/engine/sqlite/claim.ts).
CREATE INDEX jobs_ready_owner ON jobs (owner, run_at, created_at) WHERE state = 'ready';
