/**
 * Operator commands.
 *
 *   node --import tsx scripts/admin.ts create-user --email E --password P [--name N] [--admin]
 *   node --import tsx scripts/admin.ts create-user --email E --password-stdin [--name N] [--admin]
 *   node --import tsx scripts/admin.ts create-token --email E --name N
 *   node --import tsx scripts/admin.ts reset-link --email E
 *   node --import tsx scripts/admin.ts grant --email E --role organizer|admin|user
 *
 * `create-token` prints the new token alone on one line of stdout (it is not stored and
 * cannot be shown again); `reset-link` prints a fresh password-reset link alone on one line
 * of stdout (`${NEXTAUTH_URL}/reset-password?token=…`, working once within one hour; set
 * NEXTAUTH_URL as the web server has it), for sites without SMTP; everything else goes to
 * stderr. `grant` gives an existing account a site role (lib/accounts/site-roles.ts):
 * `organizer` may create tasks, `admin` manages the site (this is how an account made on the
 * web becomes the first admin), `user` revokes either; it prints the change on stdout, is
 * audited as `user.role_change` without an actor, and refuses to demote the last admin.
 *
 * With DATABASE_URL set, commands use that database. Otherwise they start the embedded
 * Postgres (EMBEDDED_PG_PORT, EMBEDDED_PG_DATA_DIR), or join the one `serve` is running, apply
 * pending migrations, and stop it again afterwards if they started it.
 *
 * Exit codes: 0 ok; 2 usage (unknown command or option, missing or invalid argument);
 * 1 anything else (email already registered, no such user, the last admin, database failure),
 * with a message.
 */
import { pathToFileURL } from "node:url";
import { Command, CommanderError } from "commander";
import { EnvError, loadEnv } from "../lib/env";
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from "../lib/db/embedded";
import { migrate } from "../lib/db/migrate";
import { disconnectPrisma } from "../lib/db/client";
import { EmailTakenError, UserInputError, createUser, getUserByEmail, createApiToken, createPasswordResetLink, A_SITE_ROLE, parseSiteRole, setSiteRoleByEmail } from "../lib/accounts";
import { ConflictError, NotFoundError } from "../lib/errors";

/** Where the CLI writes; replaced in tests. */
export interface AdminIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Reads all of stdin (for `--password-stdin`). */
  readStdin: () => Promise<string>;
}

const processIo: AdminIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  },
};

/** An error with the exit code it should produce. */
class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2,
  ) {
    super(message);
  }
}

/**
 * Runs the admin CLI.
 *
 * @param argv the arguments after the script name, e.g. `["create-user", "--email", "a@b.org", ...]`
 * @param io output and input streams (default: the process's)
 * @returns the exit code: 0 ok, 2 usage, 1 other errors
 */
export async function runAdmin(argv: string[], io: AdminIo = processIo): Promise<number> {
  const program = new Command()
    .name("admin")
    .description("Corefboard operator commands")
    .exitOverride()
    .showHelpAfterError()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });

  program
    .command("create-user")
    .description("create an account (optionally an administrator)")
    .requiredOption("--email <email>", "email address (stored lower-cased)")
    .option("--password <password>", "password, at least 10 characters")
    .option("--password-stdin", "read the password from stdin instead (keeps it out of the process list)")
    .option("--name <name>", "display name (default: the part of the email before @)")
    .option("--admin", "give the ADMIN role")
    .action(async (opts: { email: string; password?: string; passwordStdin?: boolean; name?: string; admin?: boolean }) => {
      if ((opts.password === undefined) === !opts.passwordStdin) {
        throw new CliError("give exactly one of --password and --password-stdin", 2);
      }
      const password = opts.passwordStdin ? (await io.readStdin()).replace(/\r?\n$/, "") : opts.password!;
      await withDatabase(io, async () => {
        const user = await createUser({ email: opts.email, password, name: opts.name, admin: opts.admin });
        io.stdout(`created ${user.role === "ADMIN" ? "administrator" : "user"} ${user.email} (id ${user.id})\n`);
      });
    });

  program
    .command("create-token")
    .description("create an API token for a user and print it (once) on stdout")
    .requiredOption("--email <email>", "the user's email address")
    .requiredOption("--name <name>", "a label for the token, e.g. CI")
    .action(async (opts: { email: string; name: string }) => {
      await withDatabase(io, async () => {
        const user = await getUserByEmail(opts.email);
        if (!user) throw new CliError(`no user with the email address ${opts.email.trim().toLowerCase()}`, 1);
        const { token } = await createApiToken(user.id, opts.name);
        io.stderr(`created API token "${opts.name.trim()}" for ${user.email}; it is shown only this once:\n`);
        io.stdout(`${token}\n`);
      });
    });

  program
    .command("reset-link")
    .description("print a password-reset link for a user (works once, within one hour; no mail is sent)")
    .requiredOption("--email <email>", "the user's email address")
    .action(async (opts: { email: string }) => {
      await withDatabase(io, async () => {
        let link: Awaited<ReturnType<typeof createPasswordResetLink>>;
        try {
          link = await createPasswordResetLink(opts.email);
        } catch (error) {
          if (error instanceof NotFoundError) throw new CliError(`no user with the email address ${opts.email.trim().toLowerCase()}`, 1);
          throw error;
        }
        io.stderr(`password-reset link for ${link.email}, valid once until ${link.expiresAt.toISOString()}:\n`);
        io.stdout(`${link.url}\n`);
      });
    });

  program
    .command("grant")
    .description("give an account a site role: organizer (may create tasks), admin, or user (revokes both)")
    .requiredOption("--email <email>", "the account's email address")
    .requiredOption("--role <role>", "organizer, admin or user")
    .action(async (opts: { email: string; role: string }) => {
      const role = parseSiteRole(opts.role); // a bad role is a usage error, found before the database is opened
      await withDatabase(io, async () => {
        let change: Awaited<ReturnType<typeof setSiteRoleByEmail>>;
        try {
          change = await setSiteRoleByEmail(opts.email, role);
        } catch (error) {
          if (error instanceof NotFoundError) throw new CliError(`no user with the email address ${opts.email.trim().toLowerCase()}`, 1);
          if (error instanceof ConflictError) throw new CliError(error.message, 1);
          throw error;
        }
        const { user, from, to } = change;
        io.stdout(change.changed ? `${user.email} is now ${A_SITE_ROLE[to]} (was ${A_SITE_ROLE[from]})\n` : `${user.email} is already ${A_SITE_ROLE[to]}; nothing changed\n`);
      });
    });

  try {
    if (argv.length === 0) throw new CliError(program.helpInformation(), 2);
    await program.parseAsync(argv, { from: "user" });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (error instanceof CliError) {
      io.stderr(`${error.message.trimEnd()}\n`);
      return error.exitCode;
    }
    if (error instanceof UserInputError) {
      io.stderr(`invalid argument: ${error.message}\n`);
      return 2;
    }
    if (error instanceof EnvError) {
      io.stderr(`${error.message}\n`);
      return 1;
    }
    if (error instanceof EmailTakenError) {
      io.stderr(`${error.message}\n`);
      return 1;
    }
    io.stderr(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

/** Runs `fn` with `DATABASE_URL` pointing at a migrated database; see the file comment. */
async function withDatabase(io: AdminIo, fn: () => Promise<void>): Promise<void> {
  const env = loadEnv();
  let embedded: EmbeddedPostgresHandle | undefined;
  const previous = process.env.DATABASE_URL;
  try {
    let url = env.DATABASE_URL;
    if (!url) {
      embedded = await startEmbeddedPostgres({ port: env.EMBEDDED_PG_PORT, dataDir: env.EMBEDDED_PG_DATA_DIR });
      url = embedded.connectionString;
      process.env.DATABASE_URL = url;
    }
    const applied = await migrate(url);
    if (applied.length) io.stderr(`applied ${applied.length} migration(s)\n`);
    await fn();
  } finally {
    if (embedded) {
      await disconnectPrisma();
      await embedded.stop();
      process.env.DATABASE_URL = previous;
    }
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runAdmin(process.argv.slice(2)).then(
    async (code) => {
      await disconnectPrisma().catch(() => {});
      process.exit(code);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
