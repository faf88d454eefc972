/**
 * A task's rules (markdown, `TaskView.rules`) under a "Rules" heading on the task page,
 * rendered safely by `TaskMarkdown`; nothing when the task has no rules. Server-safe.
 */
import { TaskMarkdown } from "../../_components/task-markdown";

/**
 * The rules section.
 *
 * @param rules the markdown source ("" or whitespace: nothing is rendered)
 * @param headingLevel the heading's level, to fit the page's outline (default 2)
 */
export function TaskRules({ rules, headingLevel = 2 }: { rules: string; headingLevel?: 2 | 3 }) {
  if (rules.trim() === "") return null;
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <section aria-labelledby="task-rules-heading" className="space-y-3" data-testid="task-rules">
      <Heading id="task-rules-heading" className="text-xl font-semibold tracking-tight">
        Rules
      </Heading>
      <TaskMarkdown source={rules} idPrefix="rules-" />
    </section>
  );
}
