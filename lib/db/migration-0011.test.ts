/**
 * 0011_team_membership on a database with links made before it (issue 23 F4): a working link
 * an owner made keeps working for many people; one a plain member made is revoked; a link
 * made afterwards is single-use by default.
 */
import { describe, expect, it } from "vitest";
import { migrate } from "./migrate";
import { useDatabaseMigratedBefore } from "./test-db";

/** A database of its own with the migrations before 0011, on the run's shared Postgres. */
const old = useDatabaseMigratedBefore("0011");

describe("0011_team_membership", () => {
  it("keeps owners' links working for many, revokes members' links, and makes new links single-use", async () => {
    const user = async (email: string) => (await old.db.query<{ id: string }>(`INSERT INTO users (email, name) VALUES ($1, $1) RETURNING id`, [email])).rows[0]!.id;
    const owner = await user("owner@example.org");
    const member = await user("member@example.org");
    const team = (await old.db.query<{ id: string }>(`INSERT INTO teams (name) VALUES ('Crew') RETURNING id`)).rows[0]!.id;
    await old.db.query(`INSERT INTO team_members (team_id, user_id, role) VALUES ($1, $2, 'OWNER'), ($1, $3, 'MEMBER')`, [team, owner, member]);
    const link = async (by: string, hash: string, uses = 0) =>
      (await old.db.query<{ id: string }>(`INSERT INTO team_invitations (team_id, token_hash, created_by_id, expires_at, uses) VALUES ($1, $2, $3, now() + interval '1 day', $4) RETURNING id`, [team, hash, by, uses])).rows[0]!.id;
    const owners = await link(owner, "a".repeat(64), 3);
    const members = await link(member, "b".repeat(64));

    // 0011 first (later migrations, if any, follow it).
    expect((await migrate(old.connectionString))[0]).toBe("0011_team_membership");
    const rows = new Map((await old.db.query<{ id: string; max_uses: number; uses: number; revoked_at: Date | null }>(`SELECT id, max_uses, uses, revoked_at FROM team_invitations`)).rows.map((r) => [r.id, r]));
    expect(rows.get(owners)).toMatchObject({ max_uses: 50, uses: 3, revoked_at: null });
    expect(rows.get(members)!.revoked_at).not.toBeNull();
    const fresh = await link(owner, "c".repeat(64));
    expect((await old.db.query<{ max_uses: number }>(`SELECT max_uses FROM team_invitations WHERE id = $1`, [fresh])).rows[0]!.max_uses).toBe(1);
    await expect(old.db.query(`UPDATE team_invitations SET max_uses = 0 WHERE id = $1`, [fresh])).rejects.toThrow(/team_invitations_max_uses_check/);
  });
});
