-- Jobs of every kind, as in the SQLite store (src/engine/sqlite/migrations/0001_jobs.sql). Times are
-- milliseconds since the epoch (UTC). payload and result are JSON kept as text, so a job reads back exactly
-- as written (jsonb would reorder keys), the same as from SQLite.
CREATE TABLE jobs (
  id              text PRIMARY KEY,
  kind            text NOT NULL,
  state           text NOT NULL CHECK (state IN ('held', 'ready', 'running', 'done', 'failed', 'cancelled')),
  status          text NOT NULL,
  waiting_status  text NOT NULL,
  running_status  text NOT NULL,
  payload         text,
  result          text,
  attempts        integer NOT NULL DEFAULT 0,
  max_attempts    integer NOT NULL DEFAULT 3 CHECK (max_attempts >= 1),
  run_at          bigint NOT NULL,
  locked_until    bigint,
  lock_token      text,
  worker_id       text,
  parent_id       text REFERENCES jobs (id) ON DELETE SET NULL,
  idempotency_key text,
  created_at      bigint NOT NULL,
  updated_at      bigint NOT NULL,
  error_type      text,
  error_message   text
);

-- Partial indexes: each covers only the rows its query looks for, so finished jobs cost nothing to skip.
CREATE INDEX jobs_ready ON jobs (run_at, created_at) WHERE state = 'ready';
CREATE INDEX jobs_lease ON jobs (locked_until) WHERE state = 'running';
CREATE INDEX jobs_created ON jobs (created_at);
CREATE INDEX jobs_parent ON jobs (parent_id) WHERE parent_id IS NOT NULL;
CREATE UNIQUE INDEX jobs_idempotency ON jobs (kind, idempotency_key) WHERE idempotency_key IS NOT NULL;

-- Wake idle workers on every node when a job becomes claimable now (inserted ready, released, retried,
-- handed back). The notification goes out at commit; the same kind notified twice in one transaction is
-- delivered once. Jobs due later are found by the workers' poll.
CREATE FUNCTION assay_jobs_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('assay_jobs', NEW.kind);
  RETURN NULL;
END
$$;

CREATE TRIGGER jobs_ready_notify
  AFTER INSERT OR UPDATE OF state ON jobs
  FOR EACH ROW
  WHEN (NEW.state = 'ready' AND NEW.run_at <= (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
  EXECUTE FUNCTION assay_jobs_notify();
