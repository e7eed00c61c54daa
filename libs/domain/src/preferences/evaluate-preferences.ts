import type { WorkflowCategorySettingT } from '@notify/contracts';
import { allConditionsHold, Condition, ConditionContext } from './conditions';
import { layerPreferenceSets, PreferenceSetData } from './preference-set';

/** The preference sets that apply to one recipient, least specific first. */
export interface PreferenceLayers {
  environmentDefault?: PreferenceSetData | null;
  tenantDefault?: PreferenceSetData | null;
  recipientDefault?: PreferenceSetData | null;
  recipientInTenant?: PreferenceSetData | null;
}

export interface PreferenceEvaluationInput {
  layers: PreferenceLayers;
  workflow: { key: string; categories: readonly string[]; commercial: boolean; overridePreferences: boolean };
  /** The channel's type as channels have it (`in_app` and `in_app_feed` count as the in-app feed). */
  channel: { id: string; type: string };
  context: ConditionContext;
}

export type BlockReason =
  | 'commercial_unsubscribed'
  | 'workflow_opted_out'
  | 'workflow_conditions_not_met'
  | 'category_opted_out'
  | 'category_conditions_not_met'
  | 'channel_type_opted_out'
  | 'channel_type_conditions_not_met'
  | 'channel_opted_out'
  | 'channel_conditions_not_met';

export type PreferenceDecision =
  | { send: true; reason: 'allowed' | 'preferences_overridden' }
  /** `source` names the setting that decided: `workflows.<key>`, `categories.<key>`, `channel_types.<type>`, ... */
  | { send: false; reason: BlockReason; source: string };

type Toggle = boolean | { conditions: Condition[] };

const PREFERENCE_TYPE: Record<string, string | undefined> = {
  email: 'email',
  sms: 'sms',
  push: 'push',
  chat: 'chat',
  http: 'http',
  in_app: 'in_app_feed',
  in_app_feed: 'in_app_feed',
};

function toggle(setting: Toggle | undefined, ctx: ConditionContext): 'allowed' | 'opted_out' | 'conditions_not_met' | undefined {
  if (setting === undefined) return undefined;
  if (setting === false) return 'opted_out';
  if (setting === true) return 'allowed';
  return allConditionsHold(setting.conditions, ctx) ? 'allowed' : 'conditions_not_met';
}

const block = (reason: BlockReason, source: string): PreferenceDecision => ({ send: false, reason, source });

/**
 * Whether to send one workflow's message over one channel to one recipient, and why not.
 *
 * The layers are merged setting by setting (a more specific layer wins). Then:
 * 1. A commercial workflow is never sent to a recipient unsubscribed from commercial messages,
 *    even when the workflow overrides preferences.
 * 2. A workflow that overrides preferences is sent.
 * 3. The workflow's own setting, when there is one, decides over its categories'; otherwise
 *    every category of the workflow that has a setting must allow it. A setting's conditions
 *    must hold, and its channel_types / channels override the top-level ones.
 * 4. The channel type's setting, then the channel's setting, must allow it. Unset means allowed.
 */
export function evaluatePreferences(input: PreferenceEvaluationInput): PreferenceDecision {
  const { workflow, channel, context } = input;
  const set = layerPreferenceSets([
    input.layers.environmentDefault,
    input.layers.tenantDefault,
    input.layers.recipientDefault,
    input.layers.recipientInTenant,
  ]);

  if (workflow.commercial) {
    const commercial = toggle(set.commercial_subscribed ?? undefined, context);
    if (commercial === 'opted_out' || commercial === 'conditions_not_met') return block('commercial_unsubscribed', 'commercial_subscribed');
  }
  if (workflow.overridePreferences) return { send: true, reason: 'preferences_overridden' };

  const preferenceType = PREFERENCE_TYPE[channel.type];
  let channelTypeSetting: { value: Toggle; source: string } | undefined =
    preferenceType && set.channel_types?.[preferenceType as keyof typeof set.channel_types] !== undefined
      ? { value: set.channel_types[preferenceType as keyof typeof set.channel_types] as Toggle, source: `channel_types.${preferenceType}` }
      : undefined;
  let channelSetting: { value: Toggle; source: string } | undefined =
    set.channels?.[channel.id] !== undefined ? { value: set.channels[channel.id], source: `channels.${channel.id}` } : undefined;

  // Workflow or category settings may narrow the channel type and channel settings.
  const applyScoped = (setting: Exclude<WorkflowCategorySettingT, boolean>, source: string) => {
    const scopedType = preferenceType
      ? setting.channel_types?.[preferenceType as keyof NonNullable<typeof setting.channel_types>]
      : undefined;
    if (scopedType !== undefined) channelTypeSetting = { value: scopedType as Toggle, source: `${source}.channel_types.${preferenceType}` };
    const scopedChannel = setting.channels?.[channel.id];
    if (scopedChannel !== undefined) channelSetting = { value: scopedChannel, source: `${source}.channels.${channel.id}` };
  };

  const workflowSetting = set.workflows?.[workflow.key];
  if (workflowSetting !== undefined) {
    const source = `workflows.${workflow.key}`;
    if (workflowSetting === false) return block('workflow_opted_out', source);
    if (workflowSetting !== true) {
      if (!allConditionsHold(workflowSetting.conditions, context)) return block('workflow_conditions_not_met', source);
      applyScoped(workflowSetting, source);
    }
  } else {
    for (const category of workflow.categories) {
      const setting = set.categories?.[category];
      if (setting === undefined) continue;
      const source = `categories.${category}`;
      if (setting === false) return block('category_opted_out', source);
      if (setting === true) continue;
      if (!allConditionsHold(setting.conditions, context)) return block('category_conditions_not_met', source);
      applyScoped(setting, source);
    }
  }

  if (channelTypeSetting) {
    const result = toggle(channelTypeSetting.value, context);
    if (result === 'opted_out') return block('channel_type_opted_out', channelTypeSetting.source);
    if (result === 'conditions_not_met') return block('channel_type_conditions_not_met', channelTypeSetting.source);
  }
  if (channelSetting) {
    const result = toggle(channelSetting.value, context);
    if (result === 'opted_out') return block('channel_opted_out', channelSetting.source);
    if (result === 'conditions_not_met') return block('channel_conditions_not_met', channelSetting.source);
  }
  return { send: true, reason: 'allowed' };
}
