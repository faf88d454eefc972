/**
 * Reads the live schema of a Postgres database (one namespace) from pg_catalog, as a
 * {@link DbShape}.
 */
import type pg from "pg";
import type { DbShape, TableShape } from "./shape";

/** Options for {@link readCatalog}. */
export interface ReadCatalogOptions {
  /** Namespace to read. Default `public`. */
  schema?: string;
  /** Tables to leave out, e.g. the migration runner's bookkeeping table. */
  ignoreTables?: readonly string[];
}

const ACTIONS: Record<string, string> = { a: "NO ACTION", r: "RESTRICT", c: "CASCADE", n: "SET NULL", d: "SET DEFAULT" };

/**
 * Reads enums, tables, columns (type, nullability, default), primary keys, unique and plain
 * indexes and foreign keys.
 *
 * @param client a connected node-postgres client (or pool)
 * @returns the shape; partial and expression indexes are listed by name in `specialIndexes`
 * @throws the database error of a failing catalog query
 */
export async function readCatalog(client: pg.ClientBase | pg.Pool, options: ReadCatalogOptions = {}): Promise<DbShape> {
  const ns = options.schema ?? "public";
  const ignored = new Set(options.ignoreTables ?? []);
  const shape: DbShape = { enums: {}, tables: {}, specialIndexes: [] };

  const enums = await client.query<{ name: string; label: string }>(
    `SELECT t.typname AS name, e.enumlabel AS label
       FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid JOIN pg_namespace n ON n.oid = t.typnamespace
      WHERE n.nspname = $1 ORDER BY t.typname, e.enumsortorder`,
    [ns],
  );
  for (const { name, label } of enums.rows) (shape.enums[name] ??= []).push(label);

  const columns = await client.query<{ table: string; column: string; type: string; notnull: boolean; default: string | null }>(
    `SELECT c.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type,
            a.attnotnull AS notnull, pg_get_expr(d.adbin, d.adrelid) AS default
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
       LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') ORDER BY c.relname, a.attnum`,
    [ns],
  );
  const table = (name: string): TableShape =>
    (shape.tables[name] ??= { columns: {}, primaryKey: [], uniques: [], indexes: [], foreignKeys: [] });
  for (const r of columns.rows) {
    if (ignored.has(r.table)) continue;
    table(r.table).columns[r.column] = { type: r.type, nullable: !r.notnull, default: r.default };
  }

  const indexes = await client.query<{ table: string; name: string; unique: boolean; primary: boolean; special: boolean; method: string; columns: string[] }>(
    `SELECT t.relname AS table, i.relname AS name, ix.indisunique AS unique, ix.indisprimary AS primary,
            (ix.indpred IS NOT NULL OR ix.indexprs IS NOT NULL) AS special, am.amname AS method,
            ARRAY(SELECT a.attname || CASE WHEN pg_index_column_has_property(ix.indexrelid, k.ord::int, 'desc')
                                           THEN ' DESC' ELSE '' END
                    FROM unnest(ix.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
                    JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
                   ORDER BY k.ord) AS columns
       FROM pg_index ix JOIN pg_class i ON i.oid = ix.indexrelid JOIN pg_class t ON t.oid = ix.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace JOIN pg_am am ON am.oid = i.relam
      WHERE n.nspname = $1`,
    [ns],
  );
  for (const r of indexes.rows) {
    if (ignored.has(r.table)) continue;
    const t = table(r.table);
    if (r.special) shape.specialIndexes.push(r.name);
    else if (r.primary) t.primaryKey = r.columns;
    else {
      const text = r.columns.join(",") + (r.method === "btree" ? "" : ` USING ${r.method}`);
      (r.unique ? t.uniques : t.indexes).push(text);
    }
  }

  const fks = await client.query<{ table: string; from: string[]; ref: string; to: string[]; del: string; upd: string }>(
    `SELECT t.relname AS table, rt.relname AS ref, c.confdeltype AS del, c.confupdtype AS upd,
            ARRAY(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY AS k(attnum, ord)
                    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum ORDER BY k.ord) AS from,
            ARRAY(SELECT a.attname::text FROM unnest(c.confkey) WITH ORDINALITY AS k(attnum, ord)
                    JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum ORDER BY k.ord) AS to
       FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_class rt ON rt.oid = c.confrelid
       JOIN pg_namespace n ON n.oid = c.connamespace
      WHERE n.nspname = $1 AND c.contype = 'f'`,
    [ns],
  );
  for (const r of fks.rows) {
    if (ignored.has(r.table)) continue;
    table(r.table).foreignKeys.push(
      `(${r.from.join(",")}) -> ${r.ref}(${r.to.join(",")}) ON DELETE ${ACTIONS[r.del]} ON UPDATE ${ACTIONS[r.upd]}`,
    );
  }

  for (const t of Object.values(shape.tables)) {
    t.uniques.sort();
    t.indexes.sort();
    t.foreignKeys.sort();
  }
  shape.specialIndexes.sort();
  return shape;
}
