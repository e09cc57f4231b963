-- Blobs (src/blobs/postgres-blob-store.ts): uploaded PDFs, report PDFs kept for delivery, sealed callback
-- credentials, readable by every node. The bytes go in chunks of at most 1 MiB, so a 50 MB upload is fifty
-- rows rather than one value the server and the client must hold whole. A blob is its `blobs` row plus its
-- chunks, written in one transaction; the row is locked first, so two writers of one key take turns.
CREATE TABLE blobs (
  key        text PRIMARY KEY,
  size       bigint NOT NULL,
  written_at bigint NOT NULL
);

CREATE TABLE blob_chunks (
  key  text NOT NULL REFERENCES blobs (key) ON DELETE CASCADE,
  seq  integer NOT NULL,
  data bytea NOT NULL,
  PRIMARY KEY (key, seq)
);

-- Chunks are compressed PDFs or sealed text: trying to compress them again costs time and saves nothing.
ALTER TABLE blob_chunks ALTER COLUMN data SET STORAGE EXTERNAL;
