import { renderMetrics } from './prometheus';

describe('renderMetrics', () => {
  it('writes the Prometheus text format with escaped labels', () => {
    const text = renderMetrics([
      { name: 'a_lag', help: 'Lag.', type: 'gauge', samples: [{ labels: { relay: 'x"y\\z' }, value: 3 }, { value: 0.5 }] },
      { name: 'b_total', help: 'Count.', type: 'counter', samples: [{ value: Number.NaN }] },
    ]);
    expect(text).toBe(['# HELP a_lag Lag.', '# TYPE a_lag gauge', 'a_lag{relay="x\\"y\\\\z"} 3', 'a_lag 0.5', '# HELP b_total Count.', '# TYPE b_total counter', 'b_total NaN', ''].join('\n'));
  });
});
