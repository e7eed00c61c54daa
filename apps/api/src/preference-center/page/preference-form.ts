import {
  PREFERENCE_CHANNEL_TYPES,
  PreferenceCenterConfigDataT,
  PreferenceCenterRowT,
  PreferenceSetDataT,
  PreferenceSetRequestT,
  WorkflowCategorySettingT,
} from '@notify/contracts';

/**
 * The hosted preference page's form (ADR 0190): one fieldset per configured row, one checkbox per
 * channel type the row offers (or one for the whole row), checked from the recipient's effective
 * preferences; and the form's fields back to a merge request on the recipient's preference set.
 * An HTML form sends only the ticked boxes, so a box of a shown row that is not sent is an opt-out.
 */

type ChannelType = (typeof PREFERENCE_CHANNEL_TYPES)[number];
const CHANNEL_LABELS: Record<ChannelType, string> = {
  email: 'Email',
  sms: 'SMS',
  push: 'Push',
  chat: 'Chat',
  http: 'Webhook',
  in_app_feed: 'In-app',
};

export interface FormBox {
  name: string;
  label: string;
  checked: boolean;
}
export interface FormRow {
  name: string;
  description: string | null;
  boxes: FormBox[];
}

/** The preference types a row offers: its listed channel types this service knows, or none (the row as a whole). */
function rowChannelTypes(row: PreferenceCenterRowT, allWhenEmpty: boolean): ChannelType[] {
  const listed = (row.channel_types ?? []).map((t) => (t === 'in_app' ? 'in_app_feed' : t));
  const known = PREFERENCE_CHANNEL_TYPES.filter((t) => listed.includes(t));
  return known.length || !allWhenEmpty ? known : [...PREFERENCE_CHANNEL_TYPES];
}

const allows = (setting: unknown) => setting !== false;

function keyedAllows(setting: WorkflowCategorySettingT | undefined, type: ChannelType | null): boolean {
  if (setting === undefined || setting === true) return true;
  if (setting === false) return false;
  if (type === null) return true;
  return allows(setting.channel_types?.[type]);
}

/** Which rows a page shows: all when the preference center is enabled, else only the commercial opt-out. */
export function shownRows(config: PreferenceCenterConfigDataT, enabled: boolean): PreferenceCenterRowT[] {
  const rows = enabled ? config.rows : config.rows.filter((r) => r.type === 'commercial_subscribed');
  return rows.length || enabled ? rows : [{ type: 'commercial_subscribed', name: 'Commercial messages' }];
}

const fieldName = (...parts: string[]) => parts.map(encodeURIComponent).join(':');

export function formRows(rows: PreferenceCenterRowT[], effective: PreferenceSetDataT): FormRow[] {
  return rows.map((row) => {
    const description = row.description ?? null;
    switch (row.type) {
      case 'category':
      case 'workflow': {
        const field = row.type === 'category' ? 'categories' : 'workflows';
        const id = row.identifier!;
        const setting = effective[field]?.[id];
        const types = rowChannelTypes(row, false);
        const boxes = types.length
          ? types.map((t) => ({ name: fieldName(field, id, t), label: CHANNEL_LABELS[t], checked: keyedAllows(setting, t) }))
          : [{ name: fieldName(field, id), label: 'Receive', checked: keyedAllows(setting, null) }];
        return { name: row.name, description, boxes };
      }
      case 'channel_types':
        return {
          name: row.name,
          description,
          boxes: rowChannelTypes(row, true).map((t) => ({
            name: fieldName('channel_types', t),
            label: CHANNEL_LABELS[t],
            checked: allows(effective.channel_types?.[t]),
          })),
        };
      case 'channel':
        return {
          name: row.name,
          description,
          boxes: [
            { name: fieldName('channels', row.identifier!), label: 'Receive', checked: allows(effective.channels?.[row.identifier!]) },
          ],
        };
      case 'commercial_subscribed':
        return {
          name: row.name,
          description,
          boxes: [{ name: 'commercial_subscribed', label: 'Receive', checked: allows(effective.commercial_subscribed) }],
        };
    }
  });
}

/**
 * The merge request a submitted form makes: every box of the shown rows, ticked or not. A per
 * channel type choice keeps the rest of an object setting (channels, conditions) as stored.
 */
export function formRequest(rows: PreferenceCenterRowT[], own: PreferenceSetDataT, fields: Record<string, string>): PreferenceSetRequestT {
  const ticked = (name: string) => Object.prototype.hasOwnProperty.call(fields, name);
  const request: PreferenceSetRequestT = { __persistence_strategy__: 'merge' };
  for (const row of rows) {
    switch (row.type) {
      case 'category':
      case 'workflow': {
        const field = row.type === 'category' ? 'categories' : 'workflows';
        const id = row.identifier!;
        const types = rowChannelTypes(row, false);
        const target = (request[field] ??= {});
        if (!types.length) {
          target[id] = ticked(fieldName(field, id));
          continue;
        }
        const stored = own[field]?.[id];
        const base = typeof stored === 'object' && stored !== null ? stored : {};
        const channelTypes = { ...(base.channel_types ?? {}) } as Record<string, unknown>;
        for (const t of types) channelTypes[t] = ticked(fieldName(field, id, t));
        // A whole-row opt-out stored before becomes per channel type: types not shown stay off.
        if (stored === false)
          for (const t of PREFERENCE_CHANNEL_TYPES) if (!types.includes(t) && channelTypes[t] === undefined) channelTypes[t] = false;
        target[id] = { ...base, channel_types: channelTypes as never };
        break;
      }
      case 'channel_types': {
        const target = (request.channel_types ??= {}) as Record<string, unknown>;
        for (const t of rowChannelTypes(row, true)) target[t] = ticked(fieldName('channel_types', t));
        break;
      }
      case 'channel':
        (request.channels ??= {})[row.identifier!] = ticked(fieldName('channels', row.identifier!));
        break;
      case 'commercial_subscribed':
        request.commercial_subscribed = ticked('commercial_subscribed');
        break;
    }
  }
  return request;
}

/** What one-click unsubscribe asks: the email of each of the link's categories off, the rest of each setting kept. */
export function unsubscribeRequest(categories: string[], own: PreferenceSetDataT): PreferenceSetRequestT {
  const updates: Record<string, WorkflowCategorySettingT> = {};
  for (const category of categories) {
    const stored = own.categories?.[category];
    if (stored === false) continue;
    const base = typeof stored === 'object' && stored !== null ? stored : {};
    updates[category] = { ...base, channel_types: { ...(base.channel_types ?? {}), email: false } };
  }
  return { __persistence_strategy__: 'merge', categories: updates };
}
