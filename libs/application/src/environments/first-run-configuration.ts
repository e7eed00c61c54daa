import { WorkflowRequest } from '@notify/contracts';
import { ChannelCommand, channelDecider, channelStream, resourceDecider, workflowStream } from '@notify/domain';
import { IN_APP_FEED_PROVIDER_ID } from '@notify/delivery';
import { EventStore } from '@notify/eventstore';
import { uuidV5 as uuidv5 } from '@notify/contracts';
import { contentSha } from '../config/content-hash';
import { normalizeWorkflow } from '../config/workflow-validation';
import { CommandMetadata, handleCommand } from '../handle-command';

export const FEED_CHANNEL_KEY = 'in-app';
export const EXAMPLE_WORKFLOW_KEY = 'welcome';
const NAMESPACE = '0b8f0f55-4a55-4d5c-9a4d-6e0c3f1f2a77';
/** The provider id first runs gave the feed channel before it was the in-app provider's own (ADR 0208). */
export const LEGACY_FEED_PROVIDER = 'knock-in-app';

/** The example a newcomer triggers first: one in-app feed message addressed by name, with the trigger's data. */
export const exampleWorkflow = () =>
  normalizeWorkflow(
    WorkflowRequest.parse({
      name: 'Welcome',
      description: 'An example workflow: one in-app feed message. Trigger it with any recipient and data.',
      steps: [
        {
          type: 'channel',
          ref: 'in_app_feed_1',
          name: 'In-app feed',
          channel_key: FEED_CHANNEL_KEY,
          channel_type: 'in_app_feed',
          template: {
            markdown_body: 'Hello **{{ recipient.name | default: recipient.id }}**! {{ data.message | default: "Welcome aboard." }}',
            action_url: '{{ data.url }}',
          },
        },
      ],
    }),
  );

/**
 * First-run configuration of an environment: an in-app feed channel and an active example
 * workflow. Each is created only when its stream is empty, so a restart never overwrites what
 * someone changed since, and a second run changes nothing.
 */
export async function ensureFirstRunConfiguration(
  store: EventStore,
  environment: string,
  actor: Omit<CommandMetadata, 'environment'>,
): Promise<void> {
  const now = () => new Date().toISOString();
  // Built from the channel's state on every attempt: a channel changed since (or another
  // environment's settings added concurrently) is kept as it is, and an environment that has
  // settings already makes this a no-op.
  await handleCommand(
    store,
    channelStream(FEED_CHANNEL_KEY),
    channelDecider,
    ({ current, archived }): ChannelCommand => {
      const kept = archived ? undefined : current;
      const settings = kept?.environment_settings ?? {};
      return {
        type: 'ConfigureChannel',
        newChannelId: uuidv5(`channel:${FEED_CHANNEL_KEY}`, NAMESPACE),
        key: FEED_CHANNEL_KEY,
        name: kept?.name ?? 'In-app feed',
        channelType: 'in_app_feed',
        // The legacy id is moved to the in-app provider's; a provider someone chose since is kept.
        provider: kept && kept.provider !== LEGACY_FEED_PROVIDER ? kept.provider : IN_APP_FEED_PROVIDER_ID,
        description: kept ? kept.description : 'The in-app feed read by @knocklabs/client and @knocklabs/react',
        environmentSettings: {
          ...settings,
          [environment]: settings[environment] ?? { channel_settings: {}, provider_settings: {}, is_sandbox: false },
        },
        now: now(),
      };
    },
    { ...actor, environment: null },
  );
  const workflow = workflowStream(environment, EXAMPLE_WORKFLOW_KEY);
  if ((await store.readStream(workflow)).length) return;
  const content = exampleWorkflow();
  const metadata = { ...actor, environment };
  await handleCommand(
    store,
    workflow,
    resourceDecider,
    {
      type: 'UpsertResource',
      resourceType: 'workflow',
      key: EXAMPLE_WORKFLOW_KEY,
      content,
      sha: contentSha(content),
      valid: true,
      errors: [],
      now: now(),
    },
    metadata,
  );
  await handleCommand(
    store,
    workflow,
    resourceDecider,
    { type: 'SetWorkflowActive', key: EXAMPLE_WORKFLOW_KEY, active: true, served: { valid: true, errors: [] }, now: now() },
    metadata,
  );
}
