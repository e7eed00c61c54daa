import { Projection, ProjectionCheckpoints1763712000000, ReactorCheckpoints1763712000010 } from '@notify/projection-runtime';
import { ChannelsReadModel1763712000300, channelsProjection } from './channels';
import { EnvironmentsReadModel1763712000100, environmentsProjection } from './environments';
import { MessagesReadModel1763712000400, messagesProjection } from './messages';
import { TimersReadModel1763712000500, timersProjection } from './timers';
import { UsersReadModel1763712000200, usersProjection } from './users';
import { recipientMigrations, recipientProjections } from './recipients';

/** Every read model: the worker runs these projections, the database runs these migrations. */
export const allProjections: readonly Projection[] = [environmentsProjection, usersProjection, channelsProjection, messagesProjection, timersProjection, ...recipientProjections];

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const allMigrations: Function[] = [
  ProjectionCheckpoints1763712000000,
  ReactorCheckpoints1763712000010,
  EnvironmentsReadModel1763712000100,
  UsersReadModel1763712000200,
  ChannelsReadModel1763712000300,
  MessagesReadModel1763712000400,
  TimersReadModel1763712000500,
  ...recipientMigrations,
];
