/** Links to the participant files (issue 24 §3) and the scorer download, for pages. Pure. */
import { scorerBundleFileName } from "../scorer/bundle";

/** `GET /api/v1/phases/{phaseId}/datasets/{datasetId}/blind`. */
export function blindInputHref(phaseId: string, datasetId: string): string {
  return `/api/v1/phases/${encodeURIComponent(phaseId)}/datasets/${encodeURIComponent(datasetId)}/blind`;
}

/** `GET /api/v1/phases/{phaseId}/sample-submission`. */
export function sampleSubmissionHref(phaseId: string): string {
  return `/api/v1/phases/${encodeURIComponent(phaseId)}/sample-submission`;
}

/** `GET /downloads/corefboard-<version>.mjs`. */
export function scorerDownloadHref(version?: string): string {
  return `/downloads/${scorerBundleFileName(version)}`;
}
