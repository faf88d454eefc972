-- 0015_blind_inputs: participant files per dataset (issue 24 §3).
--
-- - blind_inputs: the blind test input of a dataset, at most one per dataset: the gold key
--   with its coreference removed (scoring/formats/blind.ts), derived by an organizer from the
--   dataset's active gold key, or a file the organizer uploaded. Participants download it once
--   the phase opens, and the phase's sample submission holds it under the dataset's file name.
--   Stored as gold keys are (gzip of the file, sha256 and size of the original). `source` is
--   'derived' (then `gold_version` is the gold key version it came from and `options` the
--   derivation's choices, e.g. {"emptyNodes": "drop", "dropEntityDeclaration": true}) or
--   'uploaded' (`gold_version` null, `options` {}). Replacing it overwrites the row.
-- - Deleting the dataset (or its phase) deletes its blind input; an account that made one
--   cannot be deleted while it exists (as for gold keys).

-- Up Migration

CREATE TABLE "blind_inputs" (
    "id"            UUID           NOT NULL DEFAULT gen_random_uuid(),
    "phase_id"      UUID           NOT NULL,
    "dataset_id"    UUID           NOT NULL,
    "source"        TEXT           NOT NULL,
    "gold_version"  INTEGER,
    "options"       JSONB          NOT NULL DEFAULT '{}',
    "sha256"        TEXT           NOT NULL,
    "gzip"          BYTEA          NOT NULL,
    "size"          INTEGER        NOT NULL,
    "created_by_id" UUID           NOT NULL,
    "created_at"    TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "blind_inputs_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "blind_inputs_phase_id_fkey" FOREIGN KEY ("phase_id")
        REFERENCES "phases" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "blind_inputs_dataset_id_phase_id_fkey" FOREIGN KEY ("dataset_id", "phase_id")
        REFERENCES "datasets" ("id", "phase_id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "blind_inputs_created_by_id_fkey" FOREIGN KEY ("created_by_id")
        REFERENCES "users" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "blind_inputs_source_check" CHECK ("source" IN ('derived', 'uploaded')),
    CONSTRAINT "blind_inputs_sha256_check" CHECK ("sha256" ~ '^[0-9a-f]{64}$'),
    CONSTRAINT "blind_inputs_size_check" CHECK ("size" >= 0)
);
CREATE UNIQUE INDEX "blind_inputs_dataset_id_key" ON "blind_inputs" ("dataset_id");
CREATE INDEX "blind_inputs_phase_id_idx" ON "blind_inputs" ("phase_id");
CREATE INDEX "blind_inputs_created_by_id_idx" ON "blind_inputs" ("created_by_id");

-- Down Migration

DROP TABLE "blind_inputs";
