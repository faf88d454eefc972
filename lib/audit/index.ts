/**
 * The audit domain's public surface (ARCHITECTURE.md): recording and reading the audit log.
 * Code outside lib/audit/ imports from here (the module boundaries check it: `npm run boundaries`);
 * tests may reach the modules behind it.
 */
export { TASK_AUDIT_ACTIONS, describeAuditData, listTaskAuditEvents, parseAuditQuery } from "./log";
export type { AuditPage, AuditQueryInput } from "./log";
export { recordAudit } from "./record";
