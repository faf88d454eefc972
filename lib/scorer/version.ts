/**
 * The scorer version recorded with every score and in every published results snapshot:
 * `version` from package.json. Its own module (no other imports), so that the web server can
 * read it without loading the scoring worker, whose thread pool resolves files next to itself
 * at load time.
 */
import packageJson from "../../package.json" with { type: "json" };

/** e.g. "0.1.0"; "0.0.0" if package.json has no version. */
export const SCORER_VERSION: string = (packageJson as { version?: string }).version ?? "0.0.0";
