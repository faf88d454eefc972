/**
 * Test fixtures for the service tests: users, tasks with phases, submissions and scores
 * written straight to the database (bypassing the services under test), and the helpers
 * that catch a service's DomainError. Test-only.
 */
import { expect } from "vitest";
import type { PrismaClient } from "../db/client";
import type { SubmissionStatus } from "../db";
import { DomainError } from "../errors";
import { packFile } from "../storage";
import { DATASET_ORDER, defaultDatasetData } from "./datasets";
import type { Viewer } from "../permissions";

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

/** A small CoNLL-2012 key: 2 documents, 12 tokens, 4 entities (2 singletons), 6 mentions. */
export const SMALL_KEY = [
  "#begin document (doc1); part 000",
  "John\t(0)",
  "saw\t-",
  "Mary\t(1)",
  ".\t-",
  "",
  "He\t(0)",
  "waved\t-",
  "at\t-",
  "her\t(1)|(2",
  "dog\t2)",
  "#end document",
  "#begin document (doc2); part 000",
  "It\t(3)",
  "rained\t-",
  ".\t-",
  "#end document",
  "",
].join("\n");

/** A file that fails to parse at line 3, column 5 (a mention never closed). */
export const BROKEN_FILE = ["#begin document (d); part 0", "w\t-", "x\t(7", "y\t-", "#end document", ""].join("\n");

/**
 * The DomainError a promise rejects with.
 *
 * @throws (fails the test) when it resolves, or rejects with anything but a DomainError
 */
export async function rejection(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error("expected a rejection");
}

/**
 * The DomainError a synchronous call throws.
 *
 * @throws (fails the test) when it returns, or throws anything but a DomainError
 */
export function thrown(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error("expected a throw");
}

/** UTF-8 bytes of a string. */
export function bytes(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** Creates a user (e-mail confirmed, as an operator's account) and returns it with its viewer. */
export async function makeUser(db: PrismaClient, name: string, role: "ADMIN" | "USER" = "USER") {
  const user = await db.user.create({ data: { email: `${name.toLowerCase().replace(/\W/g, "")}-${unique()}@example.org`, name, role, emailConfirmedAt: new Date() } });
  return { ...user, viewer: { userId: user.id, role } satisfies NonNullable<Viewer> };
}

/** Creates a team with the given members (the first is OWNER). */
export async function makeTeam(db: PrismaClient, name: string, memberIds: string[]) {
  return db.team.create({
    data: { name: `${name} ${unique()}`, members: { create: memberIds.map((userId, i) => ({ userId, role: i === 0 ? ("OWNER" as const) : ("MEMBER" as const) })) } },
  });
}

/** Phase fields a test may set in {@link makeTaskWithPhase}. */
export type PhaseOverrides = Partial<{
  name: string;
  opensAt: Date;
  closesAt: Date;
  dailyLimit: number | null;
  totalLimit: number | null;
  leaderboardVisibility: "PUBLIC" | "PARTICIPANTS" | "ORGANIZERS";
  selectionRule: "BEST" | "LATEST";
  participantAnalysis: "NONE" | "TEAMS" | "PUBLIC";
  teamDocumentScores: boolean;
}>;

/**
 * Creates a task with one phase (open from a day ago to a day ahead unless overridden) and optional organizers,
 * PUBLISHED unless `status` says otherwise;
 * `evaluationProfile` sets the task's profile (default: the column's default, `conll2012`).
 */
export async function makeTaskWithPhase(
  db: PrismaClient,
  options: { organizerIds?: string[]; phase?: PhaseOverrides; primaryMetric?: string; evaluationProfile?: "conll2012" | "crac" | "custom"; status?: "DRAFT" | "PUBLISHED" | "ARCHIVED" } = {},
) {
  const day = 24 * 3600 * 1000;
  const slug = `task-${unique()}`;
  const task = await db.task.create({
    data: {
      slug,
      title: `Task ${slug}`,
      primaryMetric: options.primaryMetric ?? "conll",
      status: options.status ?? "PUBLISHED",
      ...(options.evaluationProfile ? { evaluationProfile: options.evaluationProfile } : {}),
      organizers: { create: (options.organizerIds ?? []).map((userId) => ({ userId })) },
      phases: {
        create: {
          name: "test",
          opensAt: new Date(Date.now() - day),
          closesAt: new Date(Date.now() + day),
          ...options.phase,
          datasets: { create: defaultDatasetData(options.evaluationProfile ?? "conll2012") },
        },
      },
    },
    include: { phases: { include: { datasets: true } } },
  });
  const { datasets, ...phase } = task.phases[0];
  return { task, phase, dataset: datasets[0] };
}

/** The fields of {@link insertSubmission}. */
export interface SubmissionFields {
  phaseId: string;
  teamId: string;
  submitterId: string;
  systemName?: string;
  status?: SubmissionStatus;
  errorStage?: string | null;
  visibility?: "PUBLIC" | "PRIVATE";
  isBaseline?: boolean;
  createdAt?: Date;
  goldVersion?: number | null;
}

/**
 * Inserts a submission row directly (default: SCORED, PUBLIC; gold version 1 when SCORED), with
 * a file for the phase's first dataset (no gold key recorded on it).
 */
export async function insertSubmission(db: PrismaClient, fields: SubmissionFields) {
  const stored = packFile(bytes(`response ${unique()}`));
  const dataset = await db.dataset.findFirstOrThrow({ where: { phaseId: fields.phaseId }, orderBy: DATASET_ORDER, select: { id: true } });
  return db.submission.create({
    data: {
      phaseId: fields.phaseId,
      teamId: fields.teamId,
      submitterId: fields.submitterId,
      systemName: fields.systemName ?? "sys",
      fileName: "response.conll",
      sha256: stored.sha256,
      size: stored.size,
      files: { create: { datasetId: dataset.id, fileName: "response.conll", sha256: stored.sha256, gzip: stored.gzip, size: stored.size } },
      status: fields.status ?? "SCORED",
      errorStage: fields.errorStage ?? null,
      visibility: fields.visibility ?? "PUBLIC",
      isBaseline: fields.isBaseline ?? false,
      goldVersion: fields.goldVersion ?? (fields.status === undefined || fields.status === "SCORED" ? 1 : null),
      ...(fields.createdAt ? { createdAt: fields.createdAt } : {}),
    },
  });
}

/**
 * Writes Score rows as the worker does: `conll` (f1 only) and `muc` with counts `[rn, rd, pn, pd]`,
 * under `options.variant` (default `""`, the evaluation profile's primary setting; else a variant id such as `partial`).
 */
export async function insertScores(
  db: PrismaClient,
  submissionId: string,
  phaseId: string,
  scores: { conll?: number; muc?: [number, number, number, number] },
  options: { variant?: string } = {},
) {
  const variant = options.variant ?? "";
  if (scores.conll !== undefined) {
    await db.score.create({ data: { submissionId, phaseId, variant, metric: "conll", f1: scores.conll } });
  }
  if (scores.muc) {
    const [recallNum, recallDen, precisionNum, precisionDen] = scores.muc;
    const recall = recallNum / recallDen;
    const precision = precisionNum / precisionDen;
    const f1 = recall + precision === 0 ? 0 : (2 * recall * precision) / (recall + precision);
    await db.score.create({ data: { submissionId, phaseId, variant, metric: "muc", recallNum, recallDen, precisionNum, precisionDen, recall, precision, f1 } });
  }
}

/**
 * The cells of one CSV line (RFC 4180 quoting: `"a,b"` and `""` for a quote), for assertions on
 * exports. Lines with quoted line breaks are not handled (the exports have none).
 */
export function csvCells(line: string): string[] {
  const out: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      out.push(cell);
      cell = "";
    } else cell += ch;
  }
  out.push(cell);
  return out;
}

/** Creates a track of a phase directly (default: no limits of its own, position 0). */
export async function makeTrack(
  db: PrismaClient,
  phaseId: string,
  name: string,
  options: { description?: string; dailyLimit?: number | null; totalLimit?: number | null; position?: number } = {},
) {
  return db.track.create({ data: { phaseId, name, ...options } });
}

/** Inserts a submission row (as {@link insertSubmission}) declared in a track (null: none). */
export async function insertSubmissionInTrack(db: PrismaClient, fields: SubmissionFields, trackId: string | null) {
  const row = await insertSubmission(db, fields);
  return trackId === null ? row : db.submission.update({ where: { id: row.id }, data: { trackId } });
}
