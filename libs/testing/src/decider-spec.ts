import { Decider, DomainEvent, fold } from '@notify/domain';

/** given(events) / when(command) / then(events) for pure deciders. */
export function deciderSpec<S, C, E extends DomainEvent>(decider: Decider<S, C, E>) {
  return {
    given(history: E[] = []) {
      return {
        when(command: C) {
          const run = () => decider.decide(command, fold(decider, history));
          return {
            then(expected: E[]) {
              expect(run()).toEqual(expected);
            },
            thenNothing() {
              expect(run()).toEqual([]);
            },
            thenThrows(code: string) {
              expect(run).toThrow(expect.objectContaining({ code }) as unknown as Error);
            },
          };
        },
      };
    },
  };
}
