import { AppConfig, ConfigError, parseConfig } from '@notify/config';
import { parseArgs } from 'node:util';
import { CliCommand, CliIo, CommandGroup, UsageError } from './command';

function groupHelp(group: CommandGroup): string {
  const width = Math.max(...group.commands.map((c) => c.name.length));
  return [
    `notify ${group.name}: ${group.summary}`,
    '',
    ...group.commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    `Run 'notify ${group.name} <command> --help' for a command's options.`,
  ].join('\n');
}

function commandHelp(group: CommandGroup, command: CliCommand): string {
  const options = Object.entries(command.options ?? {}).map(
    ([name, spec]) => `  --${name}${spec.type === 'string' ? ' <value>' : ''}${spec.short ? ` (-${spec.short})` : ''}`,
  );
  return [
    `notify ${group.name} ${command.name}${command.usage ? ` ${command.usage}` : ''}`,
    '',
    command.summary,
    ...(options.length ? ['', 'Options:', ...options] : []),
  ].join('\n');
}

export function mainHelp(groups: readonly CommandGroup[]): string {
  const width = Math.max(...groups.map((g) => g.name.length));
  return [
    'Usage: notify <group> <command> [options]',
    '',
    'Groups:',
    ...groups.map((g) => `  ${g.name.padEnd(width)}  ${g.summary}`),
    '',
    "Run 'notify <group> --help' for its commands.",
  ].join('\n');
}

/**
 * Dispatches `notify <group> <command> [options]` to the matching command. New groups are one
 * file under commands/ added to commands/index.ts; nothing here changes.
 */
export async function runCli(argv: readonly string[], groups: readonly CommandGroup[], io: CliIo): Promise<number> {
  const [groupName, commandName, ...rest] = argv;
  const print = (text: string) => io.stdout.write(`${text}\n`);
  const fail = (text: string, code = 2) => (io.stderr.write(`${text}\n`), code);

  if (!groupName || groupName === 'help' || groupName === '--help' || groupName === '-h') {
    print(mainHelp(groups));
    return groupName ? 0 : 2;
  }
  const group = groups.find((g) => g.name === groupName);
  if (!group) return fail(`Unknown command group '${groupName}'.\n\n${mainHelp(groups)}`);
  const help = commandName === '--help' || commandName === '-h';
  // A group with a default command runs it when no command is named (`notify whoami`, `notify whoami --json`).
  if (group.default && !help && (!commandName || commandName.startsWith('-'))) {
    return runCli([groupName, group.default, ...(commandName ? [commandName] : []), ...rest], groups, io);
  }
  if (!commandName || help) {
    print(groupHelp(group));
    return commandName ? 0 : 2;
  }
  const named = group.commands.find((c) => c.name === commandName);
  // A group with a fallback takes `notify <group> <argument>`: the argument is the fallback's first positional.
  const fallback = named || commandName.startsWith('-') ? undefined : group.commands.find((c) => c.name === group.fallback);
  const command = named ?? fallback;
  if (fallback) rest.unshift(commandName);
  if (!command) return fail(`Unknown command '${groupName} ${commandName}'.\n\n${groupHelp(group)}`);
  if (rest.includes('--help') || rest.includes('-h')) {
    print(commandHelp(group, command));
    return 0;
  }

  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...rest], options: command.options ?? {}, allowPositionals: command.positionals ?? false, strict: true });
  } catch (error) {
    return fail(`${(error as Error).message}\n\n${commandHelp(group, command)}`);
  }
  let config: AppConfig | undefined;
  try {
    const code = await command.run({
      values: parsed.values,
      positionals: parsed.positionals,
      io,
      config: () => (config ??= parseConfig(io.env)),
    });
    return code ?? 0;
  } catch (error) {
    if (error instanceof ConfigError || error instanceof UsageError) return fail(error.message);
    return fail(`notify ${group.name} ${command.name} failed: ${(error as Error).stack ?? String(error)}`, 1);
  }
}
