/** Errors of the operating system's network stack that mean the server cannot be reached. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  // An event store other than Postgres (EventStoreDB) that cannot serve: see EventStoreUnavailableError.
  'EVENT_STORE_UNAVAILABLE',
]);

/**
 * SQLSTATEs of a server that is going away, not taking connections or out of them, or that
 * cancelled the statement: none of them is about the request, and the statement did not commit.
 * Class 08 (connection exception) is matched as a class.
 */
const SQLSTATES = new Set([
  '57P01', // admin_shutdown: pg_terminate_backend, a fast shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up, shutting down, in recovery
  '53300', // too_many_connections
  '53400', // configuration_limit_exceeded
  '57014', // query_canceled: statement_timeout, pg_cancel_backend
]);

/** What node-postgres and pg-pool say, as messages only, when a connection fails or is gone. */
const MESSAGES = [
  /^timeout exceeded when trying to connect$/, // pg-pool: no connection free within connectionTimeoutMillis
  /^Connection terminated/, // the server or the network closed the connection (also "... due to connection timeout")
  /is not queryable$/, // a client that already failed or was closed
  /^Query read timeout$/,
  /is not currently accepting connections$/, // a database with ALLOW_CONNECTIONS false
  /^the database system is (starting up|shutting down|in recovery mode)$/,
];

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  driverError?: unknown;
  errors?: unknown;
}

/**
 * Whether an error means the database cannot serve now (unreachable, restarting, out of
 * connections, the pool's wait for a connection timed out), as opposed to an error of the
 * statement itself. Looks through TypeORM's QueryFailedError (driverError), `cause` chains and
 * AggregateErrors (a connect that tried several addresses).
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 5 || error === null || typeof error !== 'object') return false;
  const e = error as ErrorLike;
  if (typeof e.code === 'string') {
    if (NETWORK_CODES.has(e.code) || SQLSTATES.has(e.code) || /^08[0-9A-Z]{3}$/.test(e.code)) return true;
  }
  if (typeof e.message === 'string' && MESSAGES.some((m) => m.test(e.message as string))) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(e.driverError, depth + 1) || isDatabaseUnavailable(e.cause, depth + 1);
}
