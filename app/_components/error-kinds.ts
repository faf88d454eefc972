/**
 * Names of the Kummerfeld & Klein (2013) error categories for pages, in display order.
 */
import { ERROR_KINDS, type ErrorKind } from "@/lib/runs";

/** The categories in display order (the scorer's order). */
export const ERROR_KIND_ORDER: readonly ErrorKind[] = ERROR_KINDS;

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
