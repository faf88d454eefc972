-- 0004_evaluation: evaluation profiles, secondary variants, stored scorer warnings and the
-- phase's document check (issue 10, §2 and §3).
--
-- - tasks.evaluation_profile: how the task's runs are scored. `conll2012` (the CoNLL reference
--   scorer: exact spans, singletons kept), `crac` (the CorefUD scorer as CRAC uses it: head
--   match, singletons excluded, dependent zeros, plus the variants partial, exact and head with
--   singletons) or `custom` (mention_matching, keep_singletons and zero_matching as the
--   organizer sets them). Existing tasks keep their scores: a task that kept singletons with
--   exact matching is `conll2012`, any other `custom` with its settings.
-- - tasks.zero_matching: `dependent` or `linear` (custom profile, CorefUD input).
-- - scores.variant: '' for the profile's primary setting, else the variant's id (e.g.
--   `partial`); part of the key, so every variant of a run keeps its own rows.
-- - submissions.evaluation: the profile and settings a run was scored with (set with
--   scorer_version when it is scored); submissions.warnings: the scorer's warnings for the run
--   (missing or extra documents, repeated mentions, ...), as JSON objects.
-- - phases.document_check: whether response documents that match no key document (or key
--   documents missing from the response) are a warning the submitter confirms (`warn`) or an
--   error that refuses the upload (`error`).

-- Up Migration

ALTER TABLE "tasks"
    ADD COLUMN "evaluation_profile" TEXT NOT NULL DEFAULT 'conll2012',
    ADD COLUMN "zero_matching" TEXT NOT NULL DEFAULT 'dependent';
UPDATE "tasks" SET "evaluation_profile" = 'custom' WHERE NOT "keep_singletons" OR "mention_matching" <> 'exact';
ALTER TABLE "tasks"
    ADD CONSTRAINT "tasks_evaluation_profile_check" CHECK ("evaluation_profile" IN ('conll2012', 'crac', 'custom')),
    ADD CONSTRAINT "tasks_zero_matching_check" CHECK ("zero_matching" IN ('dependent', 'linear')),
    ADD CONSTRAINT "tasks_mention_matching_check" CHECK ("mention_matching" IN ('exact', 'partial', 'head'));

ALTER TABLE "scores" ADD COLUMN "variant" TEXT NOT NULL DEFAULT '';
ALTER TABLE "scores" DROP CONSTRAINT "scores_pkey";
ALTER TABLE "scores" ADD CONSTRAINT "scores_pkey" PRIMARY KEY ("submission_id", "variant", "metric");
DROP INDEX "scores_phase_id_metric_f1_idx";
CREATE INDEX "scores_phase_id_variant_metric_f1_idx" ON "scores" ("phase_id", "variant", "metric", "f1" DESC);

ALTER TABLE "submissions"
    ADD COLUMN "evaluation" JSONB,
    ADD COLUMN "warnings" JSONB NOT NULL DEFAULT '[]';

ALTER TABLE "phases" ADD COLUMN "document_check" TEXT NOT NULL DEFAULT 'warn';
ALTER TABLE "phases" ADD CONSTRAINT "phases_document_check_check" CHECK ("document_check" IN ('warn', 'error'));
