-- 0002_analysis: error analysis, the pronoun standard disclosure and mapped cluster F.
--
-- - tasks: the pronoun lexicon the disclosure uses (NULL = the shipped English lexicon,
--   else a task-supplied list in scoring/analysis/pronouns.ts's text format), the pronoun
--   categories excluded from the evaluation set (a JSON array of strings), and whether the
--   optional mapped cluster F metric is computed.
-- - run_analyses: per scored submission, the Kummerfeld & Klein error counts (totals and
--   per document) and the per-pronoun-type disclosure counts, written by the worker in the
--   same transaction as the scores.

-- Up Migration

ALTER TABLE "tasks"
    ADD COLUMN "pronoun_lexicon"    TEXT,
    ADD COLUMN "pronoun_exclusions" JSONB   NOT NULL DEFAULT '[]',
    ADD COLUMN "mapped_cluster_f"   BOOLEAN NOT NULL DEFAULT false;

CREATE TABLE "run_analyses" (
    "submission_id"      UUID           NOT NULL,
    "error_counts"       JSONB          NOT NULL,
    "document_errors"    JSONB          NOT NULL,
    "pronoun_disclosure" JSONB          NOT NULL,
    "created_at"         TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "run_analyses_pkey" PRIMARY KEY ("submission_id"),
    CONSTRAINT "run_analyses_submission_id_fkey" FOREIGN KEY ("submission_id")
        REFERENCES "submissions" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- Down Migration

DROP TABLE IF EXISTS "run_analyses";
ALTER TABLE "tasks"
    DROP COLUMN IF EXISTS "mapped_cluster_f",
    DROP COLUMN IF EXISTS "pronoun_exclusions",
    DROP COLUMN IF EXISTS "pronoun_lexicon";
