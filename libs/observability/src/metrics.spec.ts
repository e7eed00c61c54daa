import { exposition, httpRequests, observeHttpRequest } from './metrics';

describe('metrics', () => {
  it('counts a request under its route template and status, and times it by status class', async () => {
    const before =
      (await httpRequests.get()).values.find((v) => v.labels.route === '/v1/things/:id' && v.labels.status === '201')?.value ?? 0;
    observeHttpRequest('POST', '/v1/things/:id', 201, 0.012);
    observeHttpRequest('POST', '/v1/things/:id', 201, 0.3);
    const text = await exposition();
    expect(text).toContain(`notify_http_requests_total{method="POST",route="/v1/things/:id",status="201"} ${before + 2}\n`);
    expect(text).toMatch(
      /notify_http_request_duration_seconds_bucket\{le="0\.025",method="POST",route="\/v1\/things\/:id",status_class="2xx"\} [1-9]/,
    );
    expect(text).toMatch(/notify_http_request_duration_seconds_count\{method="POST",route="\/v1\/things\/:id",status_class="2xx"\} [2-9]/);
  });

  it('labels a request no route matched as unmatched', async () => {
    observeHttpRequest('GET', undefined, 404, 0.001);
    expect(await exposition()).toMatch(/notify_http_requests_total\{method="GET",route="unmatched",status="404"\} [1-9]/);
  });

  it('renders gauges and counters read at scrape time beside the registry, escaping label values', async () => {
    const text = await exposition([
      {
        name: 'test_runs',
        help: 'Runs.',
        labelNames: ['status'],
        samples: [
          { labels: { status: 'completed' }, value: 3 },
          { labels: { status: 'say "hi"\n' }, value: 1 },
        ],
      },
      { name: 'test_lag', help: 'Lag.', samples: [{ value: 7 }] },
      {
        name: 'test_handled_total',
        type: 'counter',
        help: 'Handled.',
        labelNames: ['relay'],
        samples: [{ labels: { relay: 'r' }, value: 42 }],
      },
    ]);
    expect(text).toContain('# TYPE test_runs gauge\ntest_runs{status="completed"} 3\ntest_runs{status="say \\"hi\\"\\n"} 1\n');
    expect(text).toContain('# TYPE test_lag gauge\ntest_lag 7\n');
    expect(text).toContain('# TYPE test_handled_total counter\ntest_handled_total{relay="r"} 42\n');
    expect(text).toContain('# TYPE notify_process_resident_memory_bytes gauge');
  });

  it('starts each scrape from fresh scraped values (nothing stays from the last scrape)', async () => {
    await exposition([{ name: 'test_once', help: 'Once.', samples: [{ value: 1 }] }]);
    expect(await exposition()).not.toContain('test_once');
  });
});
