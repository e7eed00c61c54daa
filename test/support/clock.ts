/**
 * A clock for the worker's timer service that the test moves: it runs with the system clock,
 * shifted by an offset the test sets (`moveTo(at)`: it reads `at` now and runs on from there).
 */
export interface MovableClock {
  now(): Date;
  moveTo(at: number): void;
}

export function movableClock(): MovableClock {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    moveTo: (at: number) => {
      offset = at - Date.now();
    },
  };
}
