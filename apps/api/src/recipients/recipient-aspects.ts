import { CommandMetadata, RecipientDeps, updateObjectAspects, updateUserAspects } from '@notify/application';
import { RecipientRefT } from '@notify/contracts';
import { AspectCommand } from '@notify/domain';

/** Applies channel data or preference commands to a user or an object. */
export function updateRecipientAspects(
  deps: RecipientDeps,
  environment: string,
  recipient: RecipientRefT,
  commands: AspectCommand[],
  metadata: CommandMetadata,
) {
  return recipient.type === 'user'
    ? updateUserAspects(deps, environment, recipient.id, commands, metadata)
    : updateObjectAspects(deps, environment, recipient.collection, recipient.id, commands, metadata);
}
