import { WorkflowReferences } from '@notify/application';
import { shownEnvironment } from '@notify/domain';
import { ChannelGroupQueries } from '@notify/projections/channel-groups';
import { ChannelQueries } from '@notify/projections/channels';
import { ConfigResourceQueries } from '@notify/projections/config-resources';
import { GoalQueries } from '@notify/projections/goals';

/** What a workflow refers to, as the read models of one environment (or branch) know it. */
export function referencesIn(
  environment: string,
  q: { channels: ChannelQueries; groups: ChannelGroupQueries; resources: ConfigResourceQueries; goals?: GoalQueries },
): WorkflowReferences {
  // Channels and goals belong to the environment itself; a branch (ADR 0156) has the versioned resources only.
  const own = shownEnvironment(environment);
  return {
    channel: async (key) => {
      const channel = await q.channels.findUsable(own, { key });
      return channel && { type: channel.type };
    },
    channelExists: (key) => q.channels.exists(key),
    channelGroup: async (key) => {
      const group = await q.groups.get(key);
      return group && { channel_type: group.channel_type };
    },
    emailLayout: (key) => q.resources.exists(environment, 'email_layout', key),
    partial: (key) => q.resources.exists(environment, 'partial', key),
    ...(q.goals ? { goal: async (key: string) => !!(await q.goals!.get(own, key)) } : {}),
  };
}
