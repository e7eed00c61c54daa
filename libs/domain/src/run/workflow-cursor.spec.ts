import { enterBranch, firstPath, nextPath, StepNode, stepAt } from './workflow-cursor';

const steps: StepNode[] = [
  { type: 'delay', ref: 'a' },
  {
    type: 'branch',
    ref: 'b',
    branches: [
      {
        steps: [
          { type: 'channel', ref: 'b0x' },
          { type: 'channel', ref: 'b0y' },
        ],
      },
      { steps: [{ type: 'channel', ref: 'b1x' }], terminates: true },
      { steps: [] },
    ],
  },
  { type: 'channel', ref: 'c' },
];

describe('workflow cursor', () => {
  it('walks top-level steps in order', () => {
    expect(firstPath(steps)).toEqual([0]);
    expect(stepAt(steps, [0])?.ref).toBe('a');
    expect(nextPath(steps, [0])).toEqual({ path: [1], terminated: false });
    expect(nextPath(steps, [2])).toEqual({ path: null, terminated: false });
    expect(firstPath([])).toBeNull();
  });

  it('enters a branch, walks it, and continues after the branch step', () => {
    const into = enterBranch(steps, [1], 0);
    expect(into.path).toEqual([1, 0, 0]);
    expect(stepAt(steps, into.path)?.ref).toBe('b0x');
    expect(nextPath(steps, [1, 0, 0]).path).toEqual([1, 0, 1]);
    expect(nextPath(steps, [1, 0, 1])).toEqual({ path: [2], terminated: false });
  });

  it('ends the run after a terminating branch', () => {
    expect(nextPath(steps, [1, 1, 0])).toEqual({ path: null, terminated: true });
  });

  it('skips an empty branch straight to the next step', () => {
    expect(enterBranch(steps, [1], 2)).toEqual({ path: [2], terminated: false });
  });

  it('finds no step at a branch-level path or a missing index', () => {
    expect(stepAt(steps, [1, 0])).toBeUndefined();
    expect(stepAt(steps, [7])).toBeUndefined();
    expect(stepAt(steps, null)).toBeUndefined();
  });
});
