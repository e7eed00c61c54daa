import { runCli } from './cli';
import { CommandGroup, UsageError } from './command';

function io(env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    io: {
      stdout: { write: (t: string) => out.push(t) },
      stderr: { write: (t: string) => err.push(t) },
      env,
      signal: new AbortController().signal,
    },
  };
}

const calls: unknown[] = [];
const groups: CommandGroup[] = [
  {
    name: 'things',
    summary: 'Do things',
    commands: [
      {
        name: 'list',
        summary: 'List things',
        options: { limit: { type: 'string' }, all: { type: 'boolean', default: false } },
        async run(ctx) {
          calls.push(ctx.values);
          ctx.io.stdout.write('listed\n');
        },
      },
      {
        name: 'port',
        summary: 'Print the configured port',
        async run(ctx) {
          ctx.io.stdout.write(`${ctx.config().PORT}\n`);
        },
      },
      {
        name: 'refuse',
        summary: 'Always a usage error',
        async run() {
          throw new UsageError('not like that');
        },
      },
    ],
  },
];

const bare: CommandGroup = {
  name: 'me',
  summary: 'Who am I',
  default: 'show',
  commands: [
    {
      name: 'show',
      summary: 'Show me',
      options: { json: { type: 'boolean' } },
      async run(ctx) {
        ctx.io.stdout.write(`shown${ctx.values.json ? ' as json' : ''}\n`);
      },
    },
  ],
};

describe('CLI dispatcher', () => {
  it("runs a group's default command when none is named, with the options given", async () => {
    for (const [argv, text] of [
      [['me'], 'shown\n'],
      [['me', '--json'], 'shown as json\n'],
      [['me', 'show', '--json'], 'shown as json\n'],
    ] as const) {
      const t = io();
      expect(await runCli(argv, [bare], t.io)).toBe(0);
      expect(t.out.join('')).toBe(text);
    }
    const help = io();
    expect(await runCli(['me', '--help'], [bare], help.io)).toBe(0);
    expect(help.out.join('')).toContain('notify me: Who am I');
  });

  it('runs a command with its parsed options', async () => {
    const t = io();
    expect(await runCli(['things', 'list', '--limit', '3', '--all'], groups, t.io)).toBe(0);
    expect(calls.at(-1)).toEqual({ limit: '3', all: true });
    expect(t.out.join('')).toBe('listed\n');
  });

  it('shows help for the program, a group and a command', async () => {
    const t = io();
    expect(await runCli(['--help'], groups, t.io)).toBe(0);
    expect(await runCli(['things', '--help'], groups, t.io)).toBe(0);
    expect(await runCli(['things', 'list', '--help'], groups, t.io)).toBe(0);
    const text = t.out.join('');
    expect(text).toContain('things  Do things');
    expect(text).toContain('list    List things');
    expect(text).toContain('--limit <value>');
  });

  it('fails with usage (exit 2) on unknown groups, commands and options, and on usage errors', async () => {
    for (const argv of [[], ['nope'], ['things', 'nope'], ['things', 'list', '--bogus'], ['things', 'refuse']]) {
      const t = io();
      expect(await runCli(argv, groups, t.io)).toBe(2);
      expect(t.err.join('') || t.out.join('')).not.toBe('');
    }
  });

  it('reads configuration from the given environment only when a command asks for it', async () => {
    const t = io({ PORT: '4100' });
    expect(await runCli(['things', 'port'], groups, t.io)).toBe(0);
    expect(t.out.join('')).toBe('4100\n');
    const bad = io({ PORT: 'eighty' });
    expect(await runCli(['things', 'port'], groups, bad.io)).toBe(2);
    expect(bad.err.join('')).toContain('PORT');
  });
});
