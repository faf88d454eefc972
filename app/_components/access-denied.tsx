/**
 * The page for a viewer outside a page's audience (a hidden board, hidden results): a heading,
 * the service's reason, and for anonymous viewers a link to sign in and come back.
 */
import Link from "./link";
import { Notice } from "./ui";

/**
 * @param title the page's heading, e.g. "Leaderboard"
 * @param message the refusal's message (the service's UnauthorizedError or ForbiddenError)
 * @param signIn where to come back after signing in; null: no sign-in link (signed-in viewers)
 * @param testId the notice's test id
 */
export function AccessDenied({ title, message, signIn, testId }: { title: string; message: string; signIn: string | null; testId: string }) {
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      <div data-testid={testId}>
        <Notice kind="error">
          {message}
          {signIn && (
            <>
              {" "}
              <Link href={`/signin?callbackUrl=${encodeURIComponent(signIn)}`} className="font-medium underline">
                Sign in
              </Link>
            </>
          )}
        </Notice>
      </div>
    </div>
  );
}
