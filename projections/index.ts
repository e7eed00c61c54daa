import {
  ErasureKeys1763712018000,
  LogImports1763712019753,
  Projection,
  ProjectionCheckpoints1763712000000,
  ProjectionCheckpointsMoved1763712097000,
  ReactorCheckpoints1763712000010,
} from '@notify/projection-runtime';
import { ChannelGroupsReadModel1763712002400, channelGroupsProjection } from './channel-groups';
import { TagsReadModel1763712019210, tagsProjection } from './tags';
import { BranchesReadModel1763712019750, branchesProjection } from './branches';
import { MembersReadModel1763712019760, membersProjection } from './members';
import { AssetsReadModel1763712019770, assetsProjection } from './assets';
import { ItemSchemasReadModel1763712019310, itemSchemasProjection } from './item-schemas';
import { ChannelsReadModel1763712000300, channelsProjection } from './channels';
import { CommitsReadModel1763712002200, commitsProjection } from './commits';
import {
  ArchivedConfigResources1763712031000,
  ConfigResourcesReadModel1763712002100,
  configResourcesProjection,
  ConfigVersion1763712028000,
  GuideActivationWindow1763712019150,
} from './config-resources';
import {
  ApiKeyLifecycle1763712019752,
  CredentialsVersion1763712013100,
  EnvironmentDetails1763712012100,
  EnvironmentsReadModel1763712000100,
  environmentsProjection,
  SigningKeysReadModel1763712000110,
} from './environments';
import { FeedCountsReadModel1763712007070, MessagesReadModel1763712000400, messagesProjection } from './messages';
import { TimersReadModel1763712000500, timersProjection } from './timers';
import { UsersReadModel1763712000200, usersProjection } from './users';
import { recipientMigrations, recipientProjections } from './recipients';
import { PreferenceCenterReadModel1763712019100, preferenceCenterProjection } from './preference-center';
import { VariablesReadModel1763712002300, variablesProjection } from './variables';
import { WaitingRunsReadModel1763712005000, waitingRunsProjection } from './waiting-runs';
import { EventParts1763712040000, WorkflowRunsReadModel1763712006000, workflowRunsProjection } from './workflow-runs';
import { SchedulesReadModel1763712016140, schedulesProjection } from './schedules';
import { BroadcastScheduledAt1763712099000, BroadcastsReadModel1763712017100, broadcastsProjection } from './broadcasts';
import { SourceLogSubjects1763712095000, SourcesReadModel1763712019500, sourcesProjection } from './sources';
import { GoalsReadModel1763712019600, goalsProjection } from './goals';
import { SuppressionsReadModel1763712022100, SuppressionsUser1763712026000, suppressionsProjection } from './suppressions';
import { MessageProviderIdsReadModel1763712022200, messageProviderIdsProjection } from './message-receipts';

export interface ProjectionSettings {
  /** The zone schedules fire in when their recipient has none (SCHEDULES_DEFAULT_TIMEZONE). */
  scheduleDefaultTimeZone: string;
}

/** Every read model: the worker runs these projections, the database runs these migrations. */
export function allProjections(settings: ProjectionSettings = { scheduleDefaultTimeZone: 'UTC' }): Projection[] {
  return [
    environmentsProjection,
    usersProjection,
    channelsProjection,
    messagesProjection,
    timersProjection,
    workflowRunsProjection,
    waitingRunsProjection,
    ...recipientProjections,
    ...configurationProjections(),
    schedulesProjection(settings.scheduleDefaultTimeZone),
    broadcastsProjection,
    suppressionsProjection,
    messageProviderIdsProjection,
  ];
}

/** Workflow configuration (management API). */
function configurationProjections(): Projection[] {
  return [
    configResourcesProjection,
    commitsProjection,
    variablesProjection,
    channelGroupsProjection,
    tagsProjection,
    branchesProjection,
    membersProjection,
    assetsProjection,
    itemSchemasProjection,
    sourcesProjection,
    goalsProjection,
    preferenceCenterProjection,
  ];
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const allMigrations: Function[] = [
  ProjectionCheckpoints1763712000000,
  ReactorCheckpoints1763712000010,
  EnvironmentsReadModel1763712000100,
  SigningKeysReadModel1763712000110,
  UsersReadModel1763712000200,
  ChannelsReadModel1763712000300,
  MessagesReadModel1763712000400,
  TimersReadModel1763712000500,
  ...recipientMigrations,
  ConfigResourcesReadModel1763712002100,
  CommitsReadModel1763712002200,
  VariablesReadModel1763712002300,
  ChannelGroupsReadModel1763712002400,
  WaitingRunsReadModel1763712005000,
  WorkflowRunsReadModel1763712006000,
  FeedCountsReadModel1763712007070,
  EnvironmentDetails1763712012100,
  CredentialsVersion1763712013100,
  SchedulesReadModel1763712016140,
  BroadcastsReadModel1763712017100,
  ErasureKeys1763712018000,
  PreferenceCenterReadModel1763712019100,
  GuideActivationWindow1763712019150,
  TagsReadModel1763712019210,
  ItemSchemasReadModel1763712019310,
  SourcesReadModel1763712019500,
  GoalsReadModel1763712019600,
  BranchesReadModel1763712019750,
  ApiKeyLifecycle1763712019752,
  LogImports1763712019753,
  MembersReadModel1763712019760,
  AssetsReadModel1763712019770,
  SuppressionsReadModel1763712022100,
  MessageProviderIdsReadModel1763712022200,
  SuppressionsUser1763712026000,
  ConfigVersion1763712028000,
  ArchivedConfigResources1763712031000,
  EventParts1763712040000,
  SourceLogSubjects1763712095000,
  ProjectionCheckpointsMoved1763712097000,
  BroadcastScheduledAt1763712099000,
];
