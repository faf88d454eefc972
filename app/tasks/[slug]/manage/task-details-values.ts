/**
 * The task-details form's values (the overview tab's "Task details" card): what the page
 * shows first and what `updateTaskDetailsAction` shows after a save. Plain data, usable on the
 * server and in the browser.
 */
import type { TaskDetails } from "@/lib/tasks";

/** The task-details form's values (as typed, or as stored after a save). */
export interface TaskDetailsValues {
  title: string;
  /** markdown */
  description: string;
  /** markdown */
  rules: string;
  dataLicense: string;
  dataSource: string;
}

/** The details form's values of a stored task (no licence or source as ""). */
export function taskDetailsValues(task: Pick<TaskDetails, "title" | "description" | "rules" | "dataLicense" | "dataSource">): TaskDetailsValues {
  return { title: task.title, description: task.description, rules: task.rules, dataLicense: task.dataLicense ?? "", dataSource: task.dataSource ?? "" };
}
