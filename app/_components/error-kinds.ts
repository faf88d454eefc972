/**
 * Names of the Kummerfeld & Klein (2013) error categories for pages, in display order.
 */
import type { ErrorKind } from "../../lib/services/analysis";

/** The categories in display order. */
export const ERROR_KIND_ORDER: readonly ErrorKind[] = ["span", "missing-mention", "extra-mention", "missing-entity", "extra-entity", "divided", "conflated"];

/** Person-readable names. */
export const ERROR_KIND_LABELS: Record<ErrorKind, string> = {
  span: "Span error",
  "missing-mention": "Missing mention",
  "extra-mention": "Extra mention",
  "missing-entity": "Missing entity",
  "extra-entity": "Extra entity",
  divided: "Divided entity",
  conflated: "Conflated entities",
};
