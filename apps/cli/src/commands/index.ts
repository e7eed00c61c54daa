import { CommandGroup } from '../command';
import { environmentCommands, serviceTokenCommands, whoamiCommands } from './environments';
import { keyCommands } from './keys';
import { consoleCommands } from './console';
import { eventCommands } from './events';
import { explainCommands } from './explain';
import { kafkaCommands } from './kafka';
import { memberCommands } from './members';
import { projectionCommands } from './projections';
import { recipientCommands } from './recipients';
import { scheduleCommands } from './schedules';
import { signingKeyCommands } from './signing-keys';

/** Every command group of the CLI; one file per group in this folder. */
export const commandGroups: CommandGroup[] = [
  environmentCommands,
  keyCommands,
  serviceTokenCommands,
  memberCommands,
  consoleCommands,
  signingKeyCommands,
  projectionCommands,
  kafkaCommands,
  scheduleCommands,
  eventCommands,
  explainCommands,
  recipientCommands,
  whoamiCommands,
];
