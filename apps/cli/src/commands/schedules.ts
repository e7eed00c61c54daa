import { SchedulePreviewT } from '@notify/contracts';
import { CommandGroup, UsageError } from '../command';
import { apiErrorMessage } from './api-error';

/** `local_at` without its offset's seconds noise: `2030-03-10 03:00 (-04:00)`. */
const wall = (localAt: string) => `${localAt.slice(0, 10)} ${localAt.slice(11, 16)} (${localAt.slice(19)})`;

export function formatPreview(preview: SchedulePreviewT): string {
  const lines = [
    `schedule ${preview.schedule_id}: next ${preview.occurrences.length} in ${preview.time_zone} (zone from ${preview.time_zone_source})`,
    '',
  ];
  const rows = preview.occurrences.map((o) => [
    o.occurrence.replace('T', ' '),
    o.at.replace('T', ' ').replace(':00Z', 'Z'),
    wall(o.local_at),
    o.adjusted === 'gap' ? 'local time skipped by DST: fires when the gap ends' : '',
  ]);
  const header = ['occurrence', 'UTC', 'wall clock', ''];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  for (const row of [header, ...rows])
    lines.push(
      row
        .map((cell, i) => cell.padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    );
  if (rows.length === 0) lines.push('(no occurrence left: the schedule has ended)');
  return lines.join('\n');
}

export const scheduleCommands: CommandGroup = {
  name: 'schedules',
  summary: 'Look at schedules through the API',
  commands: [
    {
      name: 'preview',
      summary: "Print a schedule's next occurrences, in UTC and on the recipient's wall clock",
      usage: '<schedule_id> [--count N] [--url URL] [--key sk_...]  (or NOTIFY_URL, NOTIFY_API_KEY)',
      options: { count: { type: 'string' }, url: { type: 'string' }, key: { type: 'string' }, json: { type: 'boolean' } },
      positionals: true,
      async run(ctx) {
        const id = ctx.positionals[0];
        if (!id) throw new UsageError('A schedule id is required');
        const count = ctx.values.count === undefined ? 10 : Number(ctx.values.count);
        if (!Number.isInteger(count) || count < 1 || count > 100) throw new UsageError('--count must be a whole number from 1 to 100');
        const url = (ctx.values.url as string | undefined) ?? ctx.io.env.NOTIFY_URL ?? 'http://localhost:3000';
        const key = (ctx.values.key as string | undefined) ?? ctx.io.env.NOTIFY_API_KEY;
        if (!key) throw new UsageError('A secret key is required: --key or NOTIFY_API_KEY');
        const res = await fetch(new URL(`/v1/schedules/${encodeURIComponent(id)}/preview?count=${count}`, url), {
          headers: { authorization: `Bearer ${key}` },
          signal: ctx.io.signal,
        });
        const body = (await res.json()) as SchedulePreviewT & { message?: string };
        if (!res.ok) {
          ctx.io.stderr.write(`${apiErrorMessage(res.status, body)}\n`);
          return 1;
        }
        ctx.io.stdout.write(`${ctx.values.json ? JSON.stringify(body, null, 2) : formatPreview(body)}\n`);
      },
    },
  ],
};
