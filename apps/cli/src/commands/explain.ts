import { RunExplanationT } from '@notify/contracts';
import { CommandContext, CommandGroup, UsageError } from '../command';
import { apiErrorMessage } from './api-error';

/** `notify explain <message or run id>`: why it was or was not sent, from the event log (secret key of the environment). */

async function explainOf(ctx: CommandContext, path: string): Promise<{ status: number; body: RunExplanationT & { message?: string } }> {
  const url = (ctx.values.url as string | undefined) ?? ctx.io.env.NOTIFY_URL ?? 'http://localhost:3000';
  const key = (ctx.values.key as string | undefined) ?? ctx.io.env.NOTIFY_API_KEY;
  if (!key) throw new UsageError('A secret key is required: --key or NOTIFY_API_KEY');
  const res = await fetch(new URL(path, url), { headers: { authorization: `Bearer ${key}` }, signal: ctx.io.signal });
  return { status: res.status, body: (await res.json()) as RunExplanationT & { message?: string } };
}

function explain(kinds: ('message' | 'run')[]) {
  return async (ctx: CommandContext): Promise<number> => {
    const id = ctx.positionals[0];
    if (!id) throw new UsageError('A message or workflow recipient run id is required');
    let last: { status: number; body: RunExplanationT & { message?: string } } | undefined;
    for (const kind of kinds) {
      const path =
        kind === 'message'
          ? `/v1/messages/${encodeURIComponent(id)}/explain`
          : `/v1/workflow_recipient_runs/${encodeURIComponent(id)}/explain`;
      last = await explainOf(ctx, path);
      if (last.status !== 404) break;
    }
    if (last!.status !== 200) {
      ctx.io.stderr.write(`${apiErrorMessage(last!.status, last!.body)}\n`);
      return 1;
    }
    ctx.io.stdout.write(`${ctx.values.json ? JSON.stringify(last!.body, null, 2) : last!.body.text}\n`);
    return 0;
  };
}

const options = { url: { type: 'string' as const }, key: { type: 'string' as const }, json: { type: 'boolean' as const } };
const usage = '<id> [--json] [--url URL] [--key sk_...]  (or NOTIFY_URL, NOTIFY_API_KEY)';

/** `notify events explain <id>`: the same as `notify explain <id>`, beside the other log reads (a secret key, not a service token). */
export const eventsExplainCommand = {
  name: 'explain',
  summary: "Why a message or run was or was not sent, each step's inputs included (as `notify explain`; secret key)",
  usage,
  options,
  positionals: true,
  run: explain(['message', 'run']),
};

export const explainCommands: CommandGroup = {
  name: 'explain',
  summary: 'Why a message or run was or was not sent, from the event log: `notify explain <id>`',
  fallback: 'any',
  commands: [
    {
      name: 'any',
      summary: 'A message id, else a workflow recipient run id',
      usage,
      options,
      positionals: true,
      run: explain(['message', 'run']),
    },
    { name: 'message', summary: 'Explain a message', usage, options, positionals: true, run: explain(['message']) },
    { name: 'run', summary: 'Explain a workflow recipient run', usage, options, positionals: true, run: explain(['run']) },
  ],
};
