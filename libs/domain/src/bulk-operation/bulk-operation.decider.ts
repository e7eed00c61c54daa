import { DomainError } from '../shared/errors';
import { assertNever, Decider } from '../shared/decider';
import { BulkOperationCommand } from './bulk-operation.commands';
import { BulkOperationEvent } from './bulk-operation.events';

export interface BulkOperationState {
  exists: boolean;
  total: number;
  processed: number;
  successes: number;
  errors: number;
  completed: boolean;
}

const initialState = (): BulkOperationState => ({ exists: false, total: 0, processed: 0, successes: 0, errors: 0, completed: false });

export const bulkOperationDecider: Decider<BulkOperationState, BulkOperationCommand, BulkOperationEvent> = {
  initialState,

  evolve(state, event) {
    switch (event.type) {
      case 'BulkOperationCreated':
        return { ...initialState(), exists: true, total: event.data.items.length };
      case 'BulkOperationProgressed':
        return { ...state, processed: event.data.processed_rows, successes: event.data.success_count, errors: event.data.error_count };
      case 'BulkOperationCompleted':
        return { ...state, completed: true };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'CreateBulkOperation':
        if (state.exists) return [];
        return [
          {
            type: 'BulkOperationCreated',
            data: {
              bulk_operation_id: command.bulkOperationId,
              kind: command.kind,
              name: command.name,
              collection: command.collection,
              items: command.items,
              created_at: command.now,
            },
          },
        ];
      case 'RecordBulkProgress': {
        if (!state.exists)
          throw new DomainError('bulk_operation_missing', `Bulk operation ${command.bulkOperationId} does not exist`, 'not_found');
        // A chunk recorded before (a redo after a crash) is not counted twice.
        if (state.completed || command.to <= state.processed) return [];
        if (command.from !== state.processed || command.to > state.total) {
          throw new DomainError(
            'bulk_progress_out_of_order',
            `Progress [${command.from}, ${command.to}) does not follow ${state.processed} of ${state.total}`,
            'conflict',
          );
        }
        const failed = command.errors.length;
        return [
          {
            type: 'BulkOperationProgressed',
            data: {
              bulk_operation_id: command.bulkOperationId,
              processed_rows: command.to,
              success_count: state.successes + (command.to - command.from - failed),
              error_count: state.errors + failed,
              error_items: command.errors.map((e) => ({ index: e.index, id: e.id, collection: e.collection ?? null, reason: e.reason })),
              progressed_at: command.now,
            },
          },
        ];
      }
      case 'CompleteBulkOperation':
        if (!state.exists || state.completed) return [];
        if (state.processed < state.total)
          throw new DomainError('bulk_operation_incomplete', `Only ${state.processed} of ${state.total} items are processed`, 'conflict');
        return [
          {
            type: 'BulkOperationCompleted',
            data: {
              bulk_operation_id: command.bulkOperationId,
              status: state.total > 0 && state.errors === state.total ? 'failed' : 'completed',
              completed_at: command.now,
            },
          },
        ];
      default:
        return assertNever(command);
    }
  },
};
