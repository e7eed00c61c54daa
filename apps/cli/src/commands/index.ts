import { CommandGroup } from '../command';
import { kafkaCommands } from './kafka';

/** Every command group of the CLI; one file per group in this folder. */
export const commandGroups: CommandGroup[] = [kafkaCommands];
