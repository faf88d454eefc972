/**
 * Links to a run's document error view (`/submissions/<id>/documents/<document>`). Server-
 * and client-safe. Every link to that page goes through {@link documentHref}, so the
 * encoding of document ids (which may hold "/", spaces, "%", …) lives in one place.
 */

/**
 * The path of one document's error view. On a phase with several datasets it names the
 * dataset (`?dataset=`), since documents are named within a dataset.
 *
 * @param submissionId the run
 * @param documentId the key document id, e.g. `"bleak_house/part 0"`
 * @param dataset the document's dataset name; null or absent on a one-dataset phase
 * @returns e.g. `/submissions/<id>/documents/bleak_house%2Fpart%200`, or
 *   `/submissions/<id>/documents/d1?dataset=en_gum`
 */
export function documentHref(submissionId: string, documentId: string, dataset: string | null = null): string {
  const href = `/submissions/${encodeURIComponent(submissionId)}/documents/${encodeURIComponent(documentId)}`;
  return dataset === null ? href : `${href}?dataset=${encodeURIComponent(dataset)}`;
}

/**
 * The document ids a `[document]` route parameter may stand for, most likely first: the
 * parameter as Next.js hands it over (already decoded once), then the parameter decoded
 * again in case it arrived still encoded. Duplicates and undecodable forms are left out.
 *
 * @param param the raw `[document]` segment value from `params`
 */
export function documentIdCandidates(param: string): string[] {
  const candidates = [param];
  try {
    const decoded = decodeURIComponent(param);
    if (decoded !== param) candidates.push(decoded);
  } catch {
    // A lone "%" and the like: the parameter is already the id.
  }
  return candidates;
}

/** The element id of a mention span in the document view: `k-<start>-<end>` (key) or `r-<start>-<end>` (response). */
export { mentionAnchor } from "@/lib/view-models/document-view";
