import { assertNever, Decider } from '../shared/decider';
import { decideAspects, emptyAspects, evolveAspects, RecipientAspects } from '../recipient/recipient-aspects';
import { changedProperties, mergeProperties } from '../user/user.decider';
import { ObjectCommand } from './object.commands';
import { ObjectEvent } from './object.events';
import { sameJson } from '../shared/same-json';

export interface ObjectState {
  exists: boolean;
  properties: Record<string, unknown>;
  aspects: RecipientAspects;
}

const initialState = (): ObjectState => ({ exists: false, properties: {}, aspects: emptyAspects() });

export const objectDecider: Decider<ObjectState, ObjectCommand, ObjectEvent> = {
  initialState,

  evolve(state, event) {
    switch (event.type) {
      case 'ObjectSet':
        return { ...state, exists: true, properties: mergeProperties(state.exists ? state.properties : {}, event.data.properties) };
      case 'ObjectDeleted':
        return initialState();
      case 'SubscriptionAdded':
      case 'SubscriptionRemoved':
        return state;
      case 'PreferenceSetUpdated':
      case 'PreferenceSetDeleted':
      case 'ChannelDataSet':
      case 'ChannelDataUnset':
        return { ...state, aspects: evolveAspects(state.aspects, event) };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    const created = (collection: string, objectId: string, now: string): ObjectEvent[] =>
      state.exists ? [] : [{ type: 'ObjectSet', data: { collection, object_id: objectId, properties: {}, set_at: now } }];
    switch (command.type) {
      case 'SetObject': {
        const changed = changedProperties(state.properties, command.properties);
        const aspects = decideAspects(
          { type: 'object', collection: command.collection, id: command.objectId },
          state.aspects,
          command.aspects ?? [],
        );
        if (state.exists && Object.keys(changed).length === 0 && aspects.length === 0) return [];
        const set: ObjectEvent[] =
          state.exists && Object.keys(changed).length === 0
            ? []
            : [
                {
                  type: 'ObjectSet',
                  data: { collection: command.collection, object_id: command.objectId, properties: changed, set_at: command.now },
                },
              ];
        return [...set, ...aspects];
      }
      case 'DeleteObject':
        if (!state.exists) return [];
        return [{ type: 'ObjectDeleted', data: { collection: command.collection, object_id: command.objectId, deleted_at: command.now } }];
      case 'UpdateObjectAspects': {
        const events = decideAspects(
          { type: 'object', collection: command.collection, id: command.objectId },
          state.aspects,
          command.commands,
        );
        return events.length ? [...created(command.collection, command.objectId, command.now), ...events] : [];
      }
      case 'AddSubscriptions': {
        const events: ObjectEvent[] = [];
        for (const { recipient, current } of command.subscribers) {
          const properties = command.properties === undefined ? (current?.properties ?? null) : command.properties;
          if (current && sameJson(current.properties, properties)) continue;
          events.push({
            type: 'SubscriptionAdded',
            data: { collection: command.collection, object_id: command.objectId, recipient, properties, added_at: command.now },
          });
        }
        return events.length ? [...created(command.collection, command.objectId, command.now), ...events] : [];
      }
      case 'RemoveSubscriptions':
        return command.subscribers
          .filter((s) => s.current !== null)
          .map((s) => ({
            type: 'SubscriptionRemoved' as const,
            data: { collection: command.collection, object_id: command.objectId, recipient: s.recipient, removed_at: command.now },
          }));
      default:
        return assertNever(command);
    }
  },
};
