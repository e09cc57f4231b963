-- The API key a job was submitted under (api_keys.id), or NULL for jobs made without a key (the CLI). The
-- server answers a job only to its owner; no foreign key, so a revoked or deleted key leaves its jobs readable
-- by the operator.
ALTER TABLE jobs ADD COLUMN owner TEXT;
-- The claim takes the least recently active owner's job first (round robin across keys); this finds each
-- owner's last activity without reading its history.
CREATE INDEX jobs_owner_activity ON jobs (owner, updated_at);
