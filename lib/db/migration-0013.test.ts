/**
 * 0013_audit_team on a database with audit events written before it: the run events get the
 * team in their data's `teamId`, the team events their target; events on no team, on a team
 * that no longer exists, or with a malformed id stay without one; the teams page's query
 * then finds the old events through the new index; deleting a team keeps its events.
 */
import { describe, expect, it } from "vitest";
import { migrate } from "./migrate";
import { useDatabaseMigratedBefore } from "./test-db";

/** A database of its own with the migrations before 0013, on the run's shared Postgres. */
const old = useDatabaseMigratedBefore("0013");

describe("0013_audit_team", () => {
  it("files the existing events under their team and indexes them for the teams page", async () => {
    const user = (await old.db.query<{ id: string }>(`INSERT INTO users (email, name) VALUES ('a@example.org', 'A') RETURNING id`)).rows[0]!.id;
    const team = async (name: string) => (await old.db.query<{ id: string }>(`INSERT INTO teams (name) VALUES ($1) RETURNING id`, [name])).rows[0]!.id;
    const crew = await team("Crew");
    const other = await team("Other");
    const gone = "00000000-0000-4000-8000-000000000000"; // a team id no row has (any more)
    const event = async (action: string, targetType: string, targetId: string, data: object) =>
      (await old.db.query<{ id: string }>(`INSERT INTO audit_events (actor_id, action, target_type, target_id, data) VALUES ($1, $2, $3, $4, $5) RETURNING id`, [user, action, targetType, targetId, JSON.stringify(data)])).rows[0]!.id;
    const run = "11111111-1111-4111-8111-111111111111";
    const ids = {
      withdraw: await event("submission.withdraw", "submission", run, { phaseId: run, teamId: crew, systemName: "s" }),
      select: await event("submission.final_select", "submission", run, { teamId: crew }),
      created: await event("submission.create", "submission", run, { teamId: other }),
      join: await event("team.join", "team", crew, {}),
      ownerAdd: await event("team.owner_add", "team", other, { userId: user }),
      task: await event("task.create", "task", run, { slug: "t" }),
      participant: await event("task.participant.update", "task", run, { userId: user, from: { id: crew }, to: { id: other } }),
      goneTeam: await event("submission.withdraw", "submission", run, { teamId: gone }),
      malformed: await event("submission.withdraw", "submission", run, { teamId: "not-a-uuid" }),
      numeric: await event("submission.withdraw", "submission", run, { teamId: 7 }),
    };

    // 0013 first, then whatever later migrations exist.
    expect((await migrate(old.connectionString))[0]).toBe("0013_audit_team");
    const filed = new Map((await old.db.query<{ id: string; team_id: string | null }>(`SELECT id, team_id FROM audit_events`)).rows.map((r) => [r.id, r.team_id]));
    expect(Object.fromEntries(Object.entries(ids).map(([k, id]) => [k, filed.get(id)]))).toEqual({
      withdraw: crew,
      select: crew,
      created: other,
      join: crew,
      ownerAdd: other,
      task: null,
      participant: null,
      goneTeam: null,
      malformed: null,
      numeric: null,
    });

    // The teams page's filter finds the old events by the column, through the new index.
    // On a 10-row table the planner's costs of its indexes (team, target, time) come out nearly
    // equal and it took any of them from run to run: 2,000 other teams' run events make the
    // team's filter the selective one, as on a site's table.
    await old.db.query(
      `INSERT INTO audit_events (actor_id, action, target_type, target_id, data, team_id) SELECT $1, 'submission.create', 'submission', $2, '{}', $3 FROM generate_series(1, 2000)`,
      [user, run, other],
    );
    await old.db.query("ANALYZE audit_events");
    const plan = (await old.db.query<{ "QUERY PLAN": string }>(
      `EXPLAIN (COSTS OFF) SELECT id FROM audit_events WHERE team_id = $1 AND target_type = 'submission' ORDER BY at DESC, id LIMIT 50`, [crew],
    )).rows.map((r) => r["QUERY PLAN"]).join("\n");
    expect(plan).toContain("audit_events_team_id_at_id_idx");
    expect((await old.db.query(`SELECT id FROM audit_events WHERE team_id = $1 AND target_type = 'submission' ORDER BY at DESC, id`, [crew])).rows.map((r) => r.id).sort()).toEqual([ids.withdraw, ids.select].sort());

    // A team id that names no team is refused; deleting a team keeps its events, unfiled.
    await expect(old.db.query(`UPDATE audit_events SET team_id = $1 WHERE id = $2`, [gone, ids.task])).rejects.toThrow(/audit_events_team_id_fkey/);
    await old.db.query(`DELETE FROM teams WHERE id = $1`, [other]);
    const kept = (await old.db.query<{ team_id: string | null; data: { teamId: string } }>(`SELECT team_id, data FROM audit_events WHERE id = $1`, [ids.created])).rows[0]!;
    expect(kept).toEqual({ team_id: null, data: { teamId: other } });
  });
});
