import { DEFAULT_PREFERENCE_CENTER_CONFIG, PreferenceCenterConfigDataT } from '@notify/contracts';
import {
  PreferenceCategoryEvent,
  preferenceCategoryDecider,
  PreferenceCategoryState,
  preferenceCategoryStream,
  PreferenceCenterEvent,
  preferenceCenterDecider,
  PreferenceCenterState,
  preferenceCenterStream,
} from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { CommandMetadata, CommandOutcome, handleCommand } from '../handle-command';

/** Creates a preference category (a live one is left as it is). Categories belong to the account. */
export function upsertPreferenceCategory(
  store: EventStore,
  name: string,
  metadata: CommandMetadata,
): Promise<CommandOutcome<PreferenceCategoryState, PreferenceCategoryEvent>> {
  return handleCommand(
    store,
    preferenceCategoryStream(name),
    preferenceCategoryDecider,
    { type: 'UpsertPreferenceCategory', name, now: new Date().toISOString() },
    { ...metadata, environment: null },
  );
}

/** Archives a live preference category (not found otherwise). */
export function archivePreferenceCategory(
  store: EventStore,
  name: string,
  metadata: CommandMetadata,
): Promise<CommandOutcome<PreferenceCategoryState, PreferenceCategoryEvent>> {
  return handleCommand(
    store,
    preferenceCategoryStream(name),
    preferenceCategoryDecider,
    { type: 'ArchivePreferenceCategory', name, now: new Date().toISOString() },
    { ...metadata, environment: null },
  );
}

/** Sets (or resets to the default content) an environment's preference center. */
export function configurePreferenceCenter(
  store: EventStore,
  environment: string,
  change: { config: PreferenceCenterConfigDataT; enabled?: boolean } | 'reset',
  metadata: CommandMetadata,
): Promise<CommandOutcome<PreferenceCenterState, PreferenceCenterEvent>> {
  const now = new Date().toISOString();
  return handleCommand(
    store,
    preferenceCenterStream(environment),
    preferenceCenterDecider,
    change === 'reset'
      ? { type: 'ResetPreferenceCenter', environment, defaults: DEFAULT_PREFERENCE_CENTER_CONFIG, now }
      : { type: 'ConfigurePreferenceCenter', environment, config: change.config, enabled: change.enabled, now },
    { ...metadata, environment },
  );
}
