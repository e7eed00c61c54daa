/** `422: One or more parameters were invalid (since: Invalid ISO datetime)`: the answer's message and each field it names. */
export function apiErrorMessage(status: number, body: unknown): string {
  const answer = body as { message?: unknown; errors?: unknown } | undefined;
  const message = typeof answer?.message === 'string' ? answer.message : JSON.stringify(body);
  const fields = (Array.isArray(answer?.errors) ? (answer.errors as { field?: unknown; message?: unknown }[]) : [])
    .filter((e) => typeof e?.field === 'string')
    .map((e) => (typeof e.message === 'string' ? `${e.field as string}: ${e.message}` : (e.field as string)));
  return `${status}: ${message}${fields.length ? ` (${fields.join('; ')})` : ''}`;
}
