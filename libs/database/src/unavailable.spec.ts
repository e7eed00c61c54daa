import { QueryFailedError } from 'typeorm';
import { isDatabaseUnavailable } from './unavailable';

const pgError = (code: string, message = 'x') => Object.assign(new Error(message), { code, severity: 'FATAL' });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['the pool found no free connection in time', new Error('timeout exceeded when trying to connect')],
    ['a new connection timed out', new Error('Connection terminated due to connection timeout')],
    ['the connection broke', new Error('Connection terminated unexpectedly')],
    ['a client that already failed', new Error('Client has encountered a connection error and is not queryable')],
    ['the server refused the connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['the connection was reset', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    [
      'a connect that tried every address',
      Object.assign(new AggregateError([Object.assign(new Error('a'), { code: 'ECONNREFUSED' })]), {}),
    ],
    ['pg_terminate_backend', pgError('57P01', 'terminating connection due to administrator command')],
    ['a server starting up', pgError('57P03', 'the database system is starting up')],
    ['no connection slots left', pgError('53300', 'sorry, too many clients already')],
    ['a connection exception (class 08)', pgError('08006', 'connection failure')],
    ['a cancelled statement', pgError('57014', 'canceling statement due to statement timeout')],
    ['a database closed to connections', pgError('55000', 'database "x" is not currently accepting connections')],
    ['TypeORM wrapping a broken connection', new QueryFailedError('SELECT 1', [], new Error('Connection terminated unexpectedly'))],
    ['an error caused by one', new Error('lookup failed', { cause: pgError('57P01') })],
    [
      'an event store server that cannot serve',
      Object.assign(new Error('EventStoreDB is unavailable'), { code: 'EVENT_STORE_UNAVAILABLE' }),
    ],
  ])('holds for %s', (_what, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', pgError('23505', 'duplicate key value violates unique constraint')],
    ['a syntax error', new QueryFailedError('SELEC 1', [], pgError('42601', 'syntax error at or near "SELEC"'))],
    ['another object-state error', pgError('55000', 'currval of sequence "s" is not yet defined in this session')],
    ['a programming error', new TypeError('cannot read properties of undefined')],
    ['not an error', 'timeout exceeded when trying to connect'],
    ['nothing', undefined],
  ])('does not hold for %s', (_what, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
