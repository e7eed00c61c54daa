import { allRoutes } from '../index';
import reference from './reference-rate-tiers.json';

/** `GET /v1/users/{}/feeds/{}`: parameter names differ between the reference and the routes. */
const shape = (method: string, path: string) => `${method} ${path.replace(/\{[^}]+\}/g, '{}')}`;

/**
 * Routes of the public API (keys, not service tokens) that the reference does not describe,
 * with the tier each keeps and why.
 */
const NOT_IN_REFERENCE: Record<string, string> = {
  explainMessage: 'why a message was or was not sent, from the event log (tier 4, as the run and message reads)',
  explainWorkflowRecipientRun: 'why a run sent or did not send, from the event log (tier 4, as the run reads)',
  ingestSourceEvent: "an event posted to a source's ingest endpoint: it triggers workflows (tier 5, as the trigger)",
  followTrackedLink: 'a tracked link opened from an email or SMS (tier 3, as message reads)',
  receiveDeliveryReceipt: "a provider's delivery webhook (tier 5: providers post in bursts, as the trigger)",
  recordTrackedOpen: "an email's open pixel loaded (tier 3, as tracked links)",
  listSuppressions: "the environment's suppression list (tier 3, as listings)",
  getUserPreferenceLayers: "a user's preference layers and their merge, for the console (tier 4, as reads)",
  listUserAudiences: "a user's static and dynamic audiences, for the console (tier 4, as reads)",
  addSuppression: 'an address suppressed by hand (tier 2, as writes)',
  removeSuppression: 'an address removed from the suppression list (tier 2, as writes)',
  previewSchedule: "a schedule's next occurrences (tier 4, as the schedule listings)",
  createConsoleSession: 'console sign-in with a one-time login link (tier 2: a guess per request is costly)',
  getConsoleSession: "the console session of the request's cookie (tier 4, as reads)",
  deleteConsoleSession: 'console sign-out (tier 4)',
};

describe('rate tiers', () => {
  const tiers = new Map(reference.operations.map((o) => [shape(o.method, o.path), o]));
  // Health, metrics and the OpenAPI document are not part of the API and are not limited.
  const apiRoutes = allRoutes().filter((r) => r.auth !== 'service' && r.path.startsWith('/v1/'));

  it('every public route has the tier the reference gives its operation', () => {
    const differing = apiRoutes
      .filter((r) => tiers.has(shape(r.method, r.path)) && tiers.get(shape(r.method, r.path))!.tier !== r.rateTier)
      .map(
        (r) =>
          `${r.operationId} (${r.method} ${r.path}): ${r.rateTier} where the reference (${tiers.get(shape(r.method, r.path))!.operationId}) says ${tiers.get(shape(r.method, r.path))!.tier}`,
      );
    expect(differing).toEqual([]);
    const compared = apiRoutes.filter((r) => tiers.has(shape(r.method, r.path))).length;
    expect(compared).toBeGreaterThan(70);
  });

  it('a public route the reference does not describe is named here, with a tier', () => {
    const unknown = apiRoutes.filter((r) => !tiers.has(shape(r.method, r.path)));
    expect(unknown.map((r) => r.operationId).sort()).toEqual(Object.keys(NOT_IN_REFERENCE).sort());
    expect(unknown.filter((r) => !r.rateTier).map((r) => r.operationId)).toEqual([]);
  });

  it('the extract is of the reference, with a tier for every operation', () => {
    expect(reference.operations.length).toBe(118);
    expect(reference.operations.filter((o) => ![1, 2, 3, 4, 5].includes(o.tier as number))).toEqual([]);
  });
});
