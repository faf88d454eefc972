-- 0006_datasets: datasets of a phase (issue 10 §1, §2, §4), as in CRAC (one CorefUD dataset per
-- language and corpus, e.g. cs_pdt, en_gum) and CoNLL-2012 (Arabic, Chinese, English).
--
-- - datasets: a phase's datasets in `position` order, each with a name (e.g. "en_gum"), a
--   language (e.g. "en"; '' when not given), the file name a run's archive holds it under
--   (e.g. "en_gum-corefud-test.conllu") and its format ("conll2012" or "conllu"). A phase has
--   at least one; a phase with one dataset takes a plain file as before.
-- - gold_keys.dataset_id: each dataset has its own versioned gold key. Versions count per
--   dataset, and at most one version per dataset is active.
-- - submission_files: the files of a run, one per dataset it covers (a plain-file run has
--   one). `gold_key_id` is the gold key version the dataset's stored results (dataset_scores,
--   document_scores, run_analyses rows of the dataset) come from; null until scored. The
--   worker scores again only the datasets whose active gold key is another one. A dataset
--   the run left out has no row and counts as 0.
-- - dataset_scores: a run's corpus-level scores on one dataset (same columns as scores).
--   scores then holds the phase level: for one dataset the same rows, for several the
--   macro-average over the phase's datasets with an active gold key (recall, precision and
--   F1 averaged; counts null).
-- - document_scores and run_analyses gain dataset_id (documents are named within a dataset).
--
-- Existing data migrates to one dataset per phase, named "main", with the format of its
-- active gold key (or conllu for a task with the crac profile, else conll2012).

-- Up Migration

CREATE TABLE "datasets" (
    "id"         UUID           NOT NULL DEFAULT gen_random_uuid(),
    "phase_id"   UUID           NOT NULL,
    "name"       TEXT           NOT NULL,
    "language"   TEXT           NOT NULL DEFAULT '',
    "file_name"  TEXT           NOT NULL,
    "format"     TEXT           NOT NULL DEFAULT 'conll2012',
    "position"   INTEGER        NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "datasets_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "datasets_phase_id_fkey" FOREIGN KEY ("phase_id")
        REFERENCES "phases" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "datasets_name_check" CHECK ("name" ~ '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$'),
    CONSTRAINT "datasets_file_name_check" CHECK (length("file_name") BETWEEN 1 AND 255 AND "file_name" !~ '[/\\]'),
    CONSTRAINT "datasets_format_check" CHECK ("format" IN ('conll2012', 'conllu'))
);
CREATE UNIQUE INDEX "datasets_phase_id_name_key" ON "datasets" ("phase_id", "name");
CREATE UNIQUE INDEX "datasets_phase_id_file_name_key" ON "datasets" ("phase_id", "file_name");
CREATE UNIQUE INDEX "datasets_id_phase_id_key" ON "datasets" ("id", "phase_id");

INSERT INTO "datasets" ("phase_id", "name", "file_name", "format")
SELECT p."id", 'main',
       CASE WHEN g."file_name" IS NOT NULL THEN g."file_name"
            WHEN t."evaluation_profile" = 'crac' THEN 'main.conllu'
            ELSE 'main.conll' END,
       CASE WHEN g."file_name" ILIKE '%.conllu' THEN 'conllu'
            WHEN g."file_name" IS NULL AND t."evaluation_profile" = 'crac' THEN 'conllu'
            ELSE 'conll2012' END
  FROM "phases" p
  JOIN "tasks" t ON t."id" = p."task_id"
  LEFT JOIN "gold_keys" g ON g."phase_id" = p."id" AND g."active";

-- Gold keys per dataset.
ALTER TABLE "gold_keys" ADD COLUMN "dataset_id" UUID;
UPDATE "gold_keys" g SET "dataset_id" = d."id" FROM "datasets" d WHERE d."phase_id" = g."phase_id";
ALTER TABLE "gold_keys" ALTER COLUMN "dataset_id" SET NOT NULL;
ALTER TABLE "gold_keys" ADD CONSTRAINT "gold_keys_dataset_id_phase_id_fkey"
    FOREIGN KEY ("dataset_id", "phase_id") REFERENCES "datasets" ("id", "phase_id") ON DELETE CASCADE ON UPDATE CASCADE;
DROP INDEX "gold_keys_phase_id_version_key";
CREATE UNIQUE INDEX "gold_keys_dataset_id_version_key" ON "gold_keys" ("dataset_id", "version");
CREATE INDEX "gold_keys_phase_id_idx" ON "gold_keys" ("phase_id");
DROP INDEX "gold_keys_one_active_per_phase";
-- At most one active gold key per dataset (Prisma cannot declare partial indexes).
CREATE UNIQUE INDEX "gold_keys_one_active_per_dataset" ON "gold_keys" ("dataset_id") WHERE "active";

-- The files of a run, one per dataset.
CREATE TABLE "submission_files" (
    "submission_id" UUID    NOT NULL,
    "phase_id"      UUID    NOT NULL,
    "dataset_id"    UUID    NOT NULL,
    "file_name"     TEXT    NOT NULL,
    "sha256"        TEXT    NOT NULL,
    "gzip"          BYTEA   NOT NULL,
    "size"          INTEGER NOT NULL,
    "gold_key_id"   UUID,
    CONSTRAINT "submission_files_pkey" PRIMARY KEY ("submission_id", "dataset_id"),
    CONSTRAINT "submission_files_submission_id_phase_id_fkey" FOREIGN KEY ("submission_id", "phase_id")
        REFERENCES "submissions" ("id", "phase_id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "submission_files_dataset_id_phase_id_fkey" FOREIGN KEY ("dataset_id", "phase_id")
        REFERENCES "datasets" ("id", "phase_id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "submission_files_gold_key_id_fkey" FOREIGN KEY ("gold_key_id")
        REFERENCES "gold_keys" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "submission_files_sha256_check" CHECK ("sha256" ~ '^[0-9a-f]{64}$'),
    CONSTRAINT "submission_files_size_check" CHECK ("size" >= 0)
);
CREATE INDEX "submission_files_dataset_id_idx" ON "submission_files" ("dataset_id");
CREATE INDEX "submission_files_gold_key_id_idx" ON "submission_files" ("gold_key_id");

INSERT INTO "submission_files" ("submission_id", "phase_id", "dataset_id", "file_name", "sha256", "gzip", "size", "gold_key_id")
SELECT s."id", s."phase_id", d."id", s."file_name", s."sha256", s."gzip", s."size",
       CASE WHEN s."status" = 'SCORED' THEN g."id" END
  FROM "submissions" s
  JOIN "datasets" d ON d."phase_id" = s."phase_id"
  LEFT JOIN "gold_keys" g ON g."dataset_id" = d."id" AND g."version" = s."gold_version";
-- The upload as sent (file or archive) keeps its name, sha256 and size on submissions; its
-- content now lives in submission_files.
ALTER TABLE "submissions" DROP COLUMN "gzip";

-- Per-dataset scores.
CREATE TABLE "dataset_scores" (
    "submission_id" UUID             NOT NULL,
    "phase_id"      UUID             NOT NULL,
    "dataset_id"    UUID             NOT NULL,
    "variant"       TEXT             NOT NULL DEFAULT '',
    "metric"        TEXT             NOT NULL,
    "recall_num"    DOUBLE PRECISION,
    "recall_den"    DOUBLE PRECISION,
    "precision_num" DOUBLE PRECISION,
    "precision_den" DOUBLE PRECISION,
    "recall"        DOUBLE PRECISION,
    "precision"     DOUBLE PRECISION,
    "f1"            DOUBLE PRECISION NOT NULL,
    CONSTRAINT "dataset_scores_pkey" PRIMARY KEY ("submission_id", "dataset_id", "variant", "metric"),
    CONSTRAINT "dataset_scores_submission_id_phase_id_fkey" FOREIGN KEY ("submission_id", "phase_id")
        REFERENCES "submissions" ("id", "phase_id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "dataset_scores_dataset_id_phase_id_fkey" FOREIGN KEY ("dataset_id", "phase_id")
        REFERENCES "datasets" ("id", "phase_id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- Ranking on one dataset: its scores for a variant and metric, best first.
CREATE INDEX "dataset_scores_dataset_id_variant_metric_f1_idx" ON "dataset_scores" ("dataset_id", "variant", "metric", "f1" DESC);

INSERT INTO "dataset_scores"
SELECT sc."submission_id", sc."phase_id", d."id", sc."variant", sc."metric", sc."recall_num", sc."recall_den",
       sc."precision_num", sc."precision_den", sc."recall", sc."precision", sc."f1"
  FROM "scores" sc
  JOIN "datasets" d ON d."phase_id" = sc."phase_id";

-- Document scores and analyses per dataset.
ALTER TABLE "document_scores" ADD COLUMN "dataset_id" UUID;
UPDATE "document_scores" ds SET "dataset_id" = d."id"
  FROM "submissions" s JOIN "datasets" d ON d."phase_id" = s."phase_id"
 WHERE s."id" = ds."submission_id";
ALTER TABLE "document_scores" ALTER COLUMN "dataset_id" SET NOT NULL;
ALTER TABLE "document_scores" DROP CONSTRAINT "document_scores_pkey";
ALTER TABLE "document_scores" ADD CONSTRAINT "document_scores_pkey" PRIMARY KEY ("submission_id", "dataset_id", "document", "metric");
ALTER TABLE "document_scores" ADD CONSTRAINT "document_scores_dataset_id_fkey" FOREIGN KEY ("dataset_id")
    REFERENCES "datasets" ("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE INDEX "document_scores_dataset_id_idx" ON "document_scores" ("dataset_id");

ALTER TABLE "run_analyses" ADD COLUMN "dataset_id" UUID;
UPDATE "run_analyses" ra SET "dataset_id" = d."id"
  FROM "submissions" s JOIN "datasets" d ON d."phase_id" = s."phase_id"
 WHERE s."id" = ra."submission_id";
ALTER TABLE "run_analyses" ALTER COLUMN "dataset_id" SET NOT NULL;
ALTER TABLE "run_analyses" DROP CONSTRAINT "run_analyses_pkey";
ALTER TABLE "run_analyses" ADD CONSTRAINT "run_analyses_pkey" PRIMARY KEY ("submission_id", "dataset_id");
ALTER TABLE "run_analyses" ADD CONSTRAINT "run_analyses_dataset_id_fkey" FOREIGN KEY ("dataset_id")
    REFERENCES "datasets" ("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE INDEX "run_analyses_dataset_id_idx" ON "run_analyses" ("dataset_id");
