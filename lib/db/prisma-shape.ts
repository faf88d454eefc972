/**
 * What a Prisma schema declares for PostgreSQL, as a {@link DbShape}: the tables, columns,
 * keys, indexes and foreign keys that `prisma migrate` would create for it.
 *
 * The schema is parsed by Prisma's own parser (`getDMMF` from `@prisma/get-dmmf`, the
 * WebAssembly build of the schema engine, which works offline). Test tooling: it imports a
 * devDependency, so never import it from app or worker code.
 *
 * Only the Prisma features this project uses are mapped; anything else (lists, full-text
 * indexes, unfamiliar native types or defaults) throws, so extending the schema with one
 * forces extending this mapper rather than silently skipping a check.
 */
import { getDMMF } from "@prisma/get-dmmf";
import type { DbShape, TableShape } from "./shape";

type Document = Exclude<ReturnType<typeof getDMMF>, { type: "wasm-error" | "parse-json" }>;
type Datamodel = Document["datamodel"];
type Model = Datamodel["models"][number];
type Field = Model["fields"][number];

/** Postgres type of a Prisma scalar without a native type attribute. */
const DEFAULT_TYPES: Record<string, string> = {
  String: "text",
  Int: "integer",
  BigInt: "bigint",
  Float: "double precision",
  Decimal: "numeric(65,30)",
  Boolean: "boolean",
  DateTime: "timestamp(3) without time zone",
  Json: "jsonb",
  Bytes: "bytea",
};

const ACTIONS: Record<string, string> = {
  Cascade: "CASCADE",
  Restrict: "RESTRICT",
  NoAction: "NO ACTION",
  SetNull: "SET NULL",
  SetDefault: "SET DEFAULT",
};

/**
 * Parses `schemaText` with Prisma's parser and derives the database shape it declares.
 *
 * @param schemaText the contents of `schema.prisma`
 * @returns the expected shape (`specialIndexes` is always empty: Prisma cannot declare them)
 * @throws Error with Prisma's validation message when the schema is invalid, or naming the
 *   model and field when the schema uses a feature this mapper does not handle
 */
export function shapeFromPrismaSchema(schemaText: string): DbShape {
  const result = getDMMF({ datamodel: schemaText });
  if (!("datamodel" in result)) throw new Error(`schema.prisma is invalid: ${result.reason}\n${result.error.message}`);
  const dm = result.datamodel;
  const shape: DbShape = { enums: {}, tables: {}, specialIndexes: [] };
  const enumDbNames = new Map<string, string>();

  for (const e of dm.enums) {
    const name = e.dbName ?? e.name;
    enumDbNames.set(e.name, name);
    shape.enums[name] = e.values.map((v) => v.dbName ?? v.name);
  }
  const models = new Map(dm.models.map((m) => [m.name, m]));
  const tableName = (m: Model) => m.dbName ?? m.name;
  const columnName = (m: Model, fieldName: string) => {
    const f = m.fields.find((x) => x.name === fieldName);
    if (!f) throw new Error(`${m.name}: no field ${fieldName}`);
    return f.dbName ?? f.name;
  };

  for (const model of dm.models) {
    const table: TableShape = { columns: {}, primaryKey: [], uniques: [], indexes: [], foreignKeys: [] };
    shape.tables[tableName(model)] = table;
    const fail = (f: Field, what: string) => new Error(`${model.name}.${f.name}: ${what} is not supported by lib/db/prisma-shape.ts`);

    for (const f of model.fields) {
      if (f.kind === "object") {
        if (f.relationFromFields?.length) {
          const target = models.get(f.type);
          if (!target) throw fail(f, `relation to unknown model ${f.type}`);
          const from = f.relationFromFields.map((n) => columnName(model, n));
          const to = (f.relationToFields ?? []).map((n) => columnName(target, n));
          // Prisma's defaults: Restrict for required relations, SetNull for optional ones; Cascade on update.
          const required = f.relationFromFields.every((n) => model.fields.find((x) => x.name === n)?.isRequired);
          const onDelete = f.relationOnDelete ?? (required ? "Restrict" : "SetNull");
          const onUpdate = (f as Field & { relationOnUpdate?: string }).relationOnUpdate ?? "Cascade";
          table.foreignKeys.push(
            `(${from.join(",")}) -> ${tableName(target)}(${to.join(",")}) ON DELETE ${ACTIONS[onDelete]} ON UPDATE ${ACTIONS[onUpdate]}`,
          );
        }
        continue;
      }
      if (f.kind !== "scalar" && f.kind !== "enum") throw fail(f, `field kind ${f.kind}`);
      if (f.isList) throw fail(f, "a list field");
      const type = f.kind === "enum" ? enumDbNames.get(f.type)! : columnType(f, fail);
      table.columns[f.dbName ?? f.name] = { type, nullable: !f.isRequired, default: columnDefault(f, type, fail) };
    }

    for (const index of dm.indexes.filter((i) => i.model === model.name)) {
      const cols = index.fields.map((x) => columnName(model, x.name) + (x.sortOrder === "desc" ? " DESC" : ""));
      const algorithm = (index as { algorithm?: string }).algorithm;
      const text = cols.join(",") + (algorithm && algorithm !== "BTree" ? ` USING ${algorithm.toLowerCase()}` : "");
      if (index.type === "id") table.primaryKey = cols;
      else if (index.type === "unique") table.uniques.push(text);
      else if (index.type === "normal") table.indexes.push(text);
      else throw new Error(`${model.name}: ${index.type} indexes are not supported by lib/db/prisma-shape.ts`);
    }
    table.uniques.sort();
    table.indexes.sort();
    table.foreignKeys.sort();
  }
  return shape;
}

/** Postgres `format_type` of a scalar field. */
function columnType(f: Field, fail: (f: Field, what: string) => Error): string {
  if (!f.nativeType) {
    const type = DEFAULT_TYPES[f.type];
    if (!type) throw fail(f, `type ${f.type}`);
    return type;
  }
  const [name, args] = f.nativeType as [string, string[]];
  const p = args.length ? `(${args.join(",")})` : "";
  switch (name) {
    case "Uuid":
      return "uuid";
    case "Text":
      return "text";
    case "VarChar":
      return `character varying${p}`;
    case "Char":
      return `character${p}`;
    case "Integer":
      return "integer";
    case "SmallInt":
      return "smallint";
    case "BigInt":
      return "bigint";
    case "DoublePrecision":
      return "double precision";
    case "Real":
      return "real";
    case "Decimal":
      return `numeric${p}`;
    case "Timestamptz":
      return `timestamp${p} with time zone`;
    case "Timestamp":
      return `timestamp${p} without time zone`;
    case "Date":
      return "date";
    case "JsonB":
      return "jsonb";
    case "Json":
      return "json";
    case "ByteA":
      return "bytea";
    default:
      throw fail(f, `native type @db.${name}`);
  }
}

/** Postgres `pg_get_expr` form of a field's database default, or null. */
function columnDefault(f: Field, type: string, fail: (f: Field, what: string) => Error): string | null {
  if (!f.hasDefaultValue || f.default === undefined) return null;
  const d = f.default as unknown;
  if (typeof d === "object" && d !== null && "name" in d) {
    const fn = d as { name: string; args: unknown[] };
    switch (fn.name) {
      case "dbgenerated":
        return String(fn.args[0]);
      case "now":
        return "CURRENT_TIMESTAMP";
      case "uuid":
      case "cuid":
      case "nanoid":
      case "ulid":
        return null; // generated by Prisma Client, not by the database
      default:
        throw fail(f, `@default(${fn.name}())`);
    }
  }
  if (typeof d === "boolean") return String(d);
  if (typeof d === "number") return d < 0 ? `'${d}'::${type}` : String(d);
  if (typeof d === "string") {
    if (f.type === "DateTime" || f.type === "Decimal" || f.type === "BigInt") throw fail(f, `a literal ${f.type} default`);
    return `'${d.replace(/'/g, "''")}'::${type}`;
  }
  throw fail(f, `default ${JSON.stringify(d)}`);
}
