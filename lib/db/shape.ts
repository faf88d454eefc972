/**
 * A database schema reduced to what `schema.prisma` can say about it, so that the
 * migrated database (lib/db/catalog.ts) and the Prisma schema (lib/db/prisma-shape.ts) can be
 * compared with {@link diffShapes}.
 *
 * Text forms (both sides produce exactly these):
 * - column type: Postgres' `format_type`, e.g. `text`, `timestamp(3) with time zone`, `user_role`
 * - default: Postgres' `pg_get_expr` form, e.g. `'conll'::text`, `CURRENT_TIMESTAMP`, `false`
 * - index: `col_a,col_b DESC` (btree; another method is appended as ` USING hash`)
 * - foreign key: `(a,b) -> table(c,d) ON DELETE CASCADE ON UPDATE CASCADE`
 */

/** One column as both sides describe it (see the file comment for the text forms). */
export interface ColumnShape {
  type: string;
  nullable: boolean;
  /** Default expression, or null for none. */
  default: string | null;
}

/** One table: columns by name, keys, indexes and foreign keys in their text forms. */
export interface TableShape {
  columns: Record<string, ColumnShape>;
  /** Primary key columns in order. */
  primaryKey: string[];
  /** Unique indexes and constraints other than the primary key, sorted. */
  uniques: string[];
  /** Plain (non-unique) indexes, sorted. */
  indexes: string[];
  /** Foreign keys, sorted. */
  foreignKeys: string[];
}

/** A whole schema: enums, tables by name, and the indexes Prisma cannot describe. */
export interface DbShape {
  /** Enum type name → labels in order. */
  enums: Record<string, string[]>;
  tables: Record<string, TableShape>;
  /**
   * Names of indexes Prisma cannot describe (partial or expression indexes). They are
   * legitimate only when listed in the allow-list passed to {@link diffShapes}.
   */
  specialIndexes: string[];
}

/**
 * Lists every difference between what the Prisma schema declares and what the database has.
 *
 * @param expected shape from `schema.prisma`
 * @param actual shape read from the database
 * @param allowedSpecialIndexes names of partial/expression indexes that the migrations add on
 *   purpose (Prisma cannot declare them)
 * @returns human-readable differences, e.g. `teams.extra: column in schema.prisma, not in the
 *   database`; empty when they agree
 */
export function diffShapes(expected: DbShape, actual: DbShape, allowedSpecialIndexes: readonly string[] = []): string[] {
  const out: string[] = [];
  const where = { expected: "in schema.prisma, not in the database", actual: "in the database, not in schema.prisma" };

  for (const [name, labels] of Object.entries(expected.enums)) {
    const got = actual.enums[name];
    if (!got) out.push(`enum ${name}: ${where.expected}`);
    else if (got.join(",") !== labels.join(",")) out.push(`enum ${name}: values [${labels}] in schema.prisma, [${got}] in the database`);
  }
  for (const name of Object.keys(actual.enums)) if (!expected.enums[name]) out.push(`enum ${name}: ${where.actual}`);

  for (const [table, exp] of Object.entries(expected.tables)) {
    const act = actual.tables[table];
    if (!act) {
      out.push(`table ${table}: ${where.expected}`);
      continue;
    }
    for (const [column, c] of Object.entries(exp.columns)) {
      const a = act.columns[column];
      if (!a) {
        out.push(`${table}.${column}: column ${where.expected}`);
        continue;
      }
      if (a.type !== c.type) out.push(`${table}.${column}: type ${c.type} in schema.prisma, ${a.type} in the database`);
      if (a.nullable !== c.nullable) {
        out.push(`${table}.${column}: ${c.nullable ? "nullable" : "NOT NULL"} in schema.prisma, ${a.nullable ? "nullable" : "NOT NULL"} in the database`);
      }
      if (a.default !== c.default) out.push(`${table}.${column}: default ${c.default ?? "(none)"} in schema.prisma, ${a.default ?? "(none)"} in the database`);
    }
    for (const column of Object.keys(act.columns)) if (!exp.columns[column]) out.push(`${table}.${column}: column ${where.actual}`);
    if (exp.primaryKey.join(",") !== act.primaryKey.join(",")) {
      out.push(`${table}: primary key (${exp.primaryKey}) in schema.prisma, (${act.primaryKey}) in the database`);
    }
    for (const kind of ["uniques", "indexes", "foreignKeys"] as const) {
      const label = { uniques: "unique index", indexes: "index", foreignKeys: "foreign key" }[kind];
      for (const item of exp[kind]) if (!act[kind].includes(item)) out.push(`${table}: ${label} ${item} ${where.expected}`);
      for (const item of act[kind]) if (!exp[kind].includes(item)) out.push(`${table}: ${label} ${item} ${where.actual}`);
    }
  }
  for (const table of Object.keys(actual.tables)) if (!expected.tables[table]) out.push(`table ${table}: ${where.actual}`);

  for (const name of actual.specialIndexes) {
    if (!allowedSpecialIndexes.includes(name)) out.push(`index ${name}: partial/expression index not in the allow-list`);
  }
  for (const name of allowedSpecialIndexes) {
    if (!actual.specialIndexes.includes(name)) out.push(`index ${name}: allow-listed but not in the database`);
  }
  return out;
}
