import type { WorkflowCategorySettingT } from '@notify/contracts';
import { Condition, ConditionContext, ConditionEvaluation, explainCondition } from './conditions';
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

/** The preference layers by name, least specific first, as the preference layers API names them (ADR 0212). */
export const PREFERENCE_LAYER_NAMES = ['environment_default', 'tenant_default', 'recipient_default', 'recipient_in_tenant'] as const;
export type PreferenceLayerName = (typeof PREFERENCE_LAYER_NAMES)[number];

/** One setting the evaluation consulted: which layer it came from, its value, and what it decided. */
export interface PreferenceSettingCheck {
  /**
   * `commercial_subscribed`, `workflows.<key>`, `categories.<key>`, `channel_types.<type>`, `channels.<id>`,
   * or a scoped `categories.<key>.channel_types.<type>`.
   */
  setting: string;
  /** The most specific layer that set it: the one whose value the merge kept. */
  layer: PreferenceLayerName | null;
  value: unknown;
  result: 'allowed' | 'opted_out' | 'conditions_not_met';
  /** A setting with conditions: each condition as evaluated. */
  conditions?: ConditionEvaluation[];
}

/** What a preference decision was made from (ADR 0219). */
export interface PreferenceTrace {
  commercial: boolean;
  override_preferences: boolean;
  /** The channel type as preferences name it (`in_app_feed` for in-app); null when preferences have none for it. */
  channel_type: string | null;
  /** Every setting consulted, in the order the rules consult them. */
  checked: PreferenceSettingCheck[];
  /** The check that blocked the message; null when it was allowed. */
  decided_by: PreferenceSettingCheck | null;
}

const PREFERENCE_TYPE: Record<string, string | undefined> = {
  email: 'email',
  sms: 'sms',
  push: 'push',
  chat: 'chat',
  http: 'http',
  in_app: 'in_app_feed',
  in_app_feed: 'in_app_feed',
};

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
  return explainPreferences(input).decision;
}

/** {@link evaluatePreferences} with what it decided from: every setting consulted, its layer and value. */
export function explainPreferences(input: PreferenceEvaluationInput): { decision: PreferenceDecision; trace: PreferenceTrace } {
  const { workflow, channel, context } = input;
  const ordered = [
    input.layers.environmentDefault,
    input.layers.tenantDefault,
    input.layers.recipientDefault,
    input.layers.recipientInTenant,
  ];
  const set = layerPreferenceSets(ordered);
  const preferenceType = PREFERENCE_TYPE[channel.type];
  const trace: PreferenceTrace = {
    commercial: workflow.commercial,
    override_preferences: workflow.overridePreferences,
    channel_type: preferenceType ?? null,
    checked: [],
    decided_by: null,
  };

  /** The most specific layer holding `field` (or `field[key]`): the merge keeps that one. */
  const layerOf = (field: keyof PreferenceSetData, key?: string): PreferenceLayerName | null => {
    for (let i = ordered.length - 1; i >= 0; i--) {
      const value = ordered[i]?.[field];
      if (value === null || value === undefined) continue;
      if (key === undefined || (value as Record<string, unknown>)[key] !== undefined) return PREFERENCE_LAYER_NAMES[i];
    }
    return null;
  };
  const check = (setting: string, layer: PreferenceLayerName | null, value: Toggle): PreferenceSettingCheck['result'] => {
    let result: PreferenceSettingCheck['result'];
    const entry: PreferenceSettingCheck = { setting, layer, value, result: 'allowed' };
    if (value === false) result = 'opted_out';
    else if (value === true) result = 'allowed';
    else {
      entry.conditions = (value.conditions ?? []).map((c) => explainCondition(c, context));
      result = entry.conditions.every((c) => c.result) ? 'allowed' : 'conditions_not_met';
    }
    entry.result = result;
    trace.checked.push(entry);
    return result;
  };
  const block = (reason: BlockReason, source: string) => {
    trace.decided_by = trace.checked[trace.checked.length - 1] ?? null;
    return { decision: { send: false, reason, source } as PreferenceDecision, trace };
  };

  if (workflow.commercial && set.commercial_subscribed !== null && set.commercial_subscribed !== undefined) {
    const commercial = check('commercial_subscribed', layerOf('commercial_subscribed'), set.commercial_subscribed as Toggle);
    if (commercial !== 'allowed') return block('commercial_unsubscribed', 'commercial_subscribed');
  }
  if (workflow.overridePreferences) return { decision: { send: true, reason: 'preferences_overridden' }, trace };

  type Scoped = { value: Toggle; source: string; layer: PreferenceLayerName | null };
  let channelTypeSetting: Scoped | undefined =
    preferenceType && set.channel_types?.[preferenceType as keyof typeof set.channel_types] !== undefined
      ? {
          value: set.channel_types[preferenceType as keyof typeof set.channel_types] as Toggle,
          source: `channel_types.${preferenceType}`,
          layer: layerOf('channel_types', preferenceType),
        }
      : undefined;
  let channelSetting: Scoped | undefined =
    set.channels?.[channel.id] !== undefined
      ? { value: set.channels[channel.id], source: `channels.${channel.id}`, layer: layerOf('channels', channel.id) }
      : undefined;

  // Workflow or category settings may narrow the channel type and channel settings.
  const applyScoped = (setting: Exclude<WorkflowCategorySettingT, boolean>, source: string, layer: PreferenceLayerName | null) => {
    const scopedType = preferenceType
      ? setting.channel_types?.[preferenceType as keyof NonNullable<typeof setting.channel_types>]
      : undefined;
    if (scopedType !== undefined)
      channelTypeSetting = { value: scopedType as Toggle, source: `${source}.channel_types.${preferenceType}`, layer };
    const scopedChannel = setting.channels?.[channel.id];
    if (scopedChannel !== undefined) channelSetting = { value: scopedChannel, source: `${source}.channels.${channel.id}`, layer };
  };

  const workflowSetting = set.workflows?.[workflow.key];
  if (workflowSetting !== undefined) {
    const source = `workflows.${workflow.key}`;
    const layer = layerOf('workflows', workflow.key);
    const result = check(source, layer, workflowSetting as Toggle);
    if (result === 'opted_out') return block('workflow_opted_out', source);
    if (result === 'conditions_not_met') return block('workflow_conditions_not_met', source);
    if (typeof workflowSetting === 'object') applyScoped(workflowSetting, source, layer);
  } else {
    for (const category of workflow.categories) {
      const setting = set.categories?.[category];
      if (setting === undefined) continue;
      const source = `categories.${category}`;
      const layer = layerOf('categories', category);
      const result = check(source, layer, setting as Toggle);
      if (result === 'opted_out') return block('category_opted_out', source);
      if (result === 'conditions_not_met') return block('category_conditions_not_met', source);
      if (typeof setting === 'object') applyScoped(setting, source, layer);
    }
  }

  if (channelTypeSetting) {
    const result = check(channelTypeSetting.source, channelTypeSetting.layer, channelTypeSetting.value);
    if (result === 'opted_out') return block('channel_type_opted_out', channelTypeSetting.source);
    if (result === 'conditions_not_met') return block('channel_type_conditions_not_met', channelTypeSetting.source);
  }
  if (channelSetting) {
    const result = check(channelSetting.source, channelSetting.layer, channelSetting.value);
    if (result === 'opted_out') return block('channel_opted_out', channelSetting.source);
    if (result === 'conditions_not_met') return block('channel_conditions_not_met', channelSetting.source);
  }
  return { decision: { send: true, reason: 'allowed' }, trace };
}
