/**
 * A run's position in its workflow: a path through nested step lists. `[3]` is the fourth
 * top-level step; `[3, 1, 0]` is the first step of branch 1 of step 3 (a branch or cohort step).
 */
export type StepPath = number[];

export interface StepNode {
  type: string;
  ref: string;
  branches?: { steps?: StepNode[]; terminates?: boolean }[];
  cohort_branches?: { steps?: StepNode[]; terminates?: boolean }[];
  [key: string]: unknown;
}

function branchesOf(step: StepNode): { steps?: StepNode[]; terminates?: boolean }[] {
  return step.branches ?? step.cohort_branches ?? [];
}

/** The step list that contains the step at `path`. */
function listAt(steps: readonly StepNode[], path: StepPath): readonly StepNode[] | undefined {
  let list: readonly StepNode[] | undefined = steps;
  for (let i = 0; i < path.length - 1; i += 2) {
    const step: StepNode | undefined = list?.[path[i]];
    if (!step) return undefined;
    list = branchesOf(step)[path[i + 1]]?.steps ?? [];
  }
  return list;
}

export function stepAt(steps: readonly StepNode[], path: StepPath | null): StepNode | undefined {
  if (!path || path.length % 2 === 0) return undefined;
  return listAt(steps, path)?.[path[path.length - 1]];
}

export function firstPath(steps: readonly StepNode[]): StepPath | null {
  return steps.length ? [0] : null;
}

export interface Next {
  path: StepPath | null;
  /** The run ends because a branch it finished was marked `terminates`. */
  terminated: boolean;
}

/** Where the run goes after the step at `path` completes normally. */
export function nextPath(steps: readonly StepNode[], path: StepPath): Next {
  const list = listAt(steps, path) ?? [];
  const index = path[path.length - 1];
  if (index + 1 < list.length) return { path: [...path.slice(0, -1), index + 1], terminated: false };
  if (path.length === 1) return { path: null, terminated: false };
  // End of a branch: a terminating branch ends the run, otherwise continue after the branch step.
  const parentPath = path.slice(0, -2);
  const parent = stepAt(steps, parentPath)!;
  if (branchesOf(parent)[path[path.length - 2]]?.terminates) return { path: null, terminated: true };
  return nextPath(steps, parentPath);
}

/** Where the run goes when the branch step at `path` takes branch `branch`. */
export function enterBranch(steps: readonly StepNode[], path: StepPath, branch: number): Next {
  const step = stepAt(steps, path)!;
  const chosen = branchesOf(step)[branch];
  if (chosen?.steps?.length) return { path: [...path, branch, 0], terminated: false };
  if (chosen?.terminates) return { path: null, terminated: true };
  return nextPath(steps, path);
}
