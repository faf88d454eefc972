/**
 * Which team an audit event is filed under (`AuditEvent.teamId`, migration 0013): the target
 * of a team event, the `teamId` in the data of a run event, none for anything else. The rows
 * the services write are checked against a database in team-membership.test.ts.
 */
import { describe, expect, it } from "vitest";
import { auditTeamId } from "./record";

const TEAM = "3f2b8c1e-7a4d-4e1b-9c2a-5d6e7f8a9b0c";
const OTHER = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";

describe("auditTeamId", () => {
  it("files a team event under its target", () => {
    expect(auditTeamId({ targetType: "team", targetId: TEAM, data: { userId: OTHER } })).toBe(TEAM);
    expect(auditTeamId({ targetType: "team", targetId: TEAM })).toBe(TEAM);
  });

  it("files a run event under the team in its data", () => {
    expect(auditTeamId({ targetType: "submission", targetId: OTHER, data: { phaseId: OTHER, teamId: TEAM } })).toBe(TEAM);
  });

  it("files nothing else, and no malformed id", () => {
    expect(auditTeamId({ targetType: "task", targetId: OTHER, data: { userId: OTHER, from: { id: TEAM }, to: null } })).toBeNull();
    expect(auditTeamId({ targetType: "phase", targetId: OTHER })).toBeNull();
    expect(auditTeamId({ targetType: "submission", targetId: OTHER, data: { teamId: "not-a-uuid" } })).toBeNull();
    expect(auditTeamId({ targetType: "submission", targetId: OTHER, data: { teamId: 42 } })).toBeNull();
    expect(auditTeamId({ targetType: "team", targetId: "Crew" })).toBeNull();
  });
});
