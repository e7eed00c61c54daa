import { uuidV5 as uuidv5 } from './uuid-v5';

/**
 * Ids the API shows for things the service identifies otherwise (ADR 0115). Each is a uuid v5,
 * so the same thing always shows the same id, on every node and after every rebuild, with
 * nothing stored.
 */
const WORKFLOW_VERSION_NAMESPACE = 'b4a7f0d2-6c1e-4f3b-8e59-0d2c7a91e3f4';
const ENVIRONMENT_NAMESPACE = '3e9d1c47-8a2b-4d6f-b0e5-7f14c2a8d963';

/**
 * A workflow version's id (`Message.source.version_id`): the version is the content hash (sha)
 * of the workflow as the environment served it, so the id is derived from the environment, the
 * workflow key and that hash. The same content saved again keeps its id; any change gets a new one.
 */
export function workflowVersionId(environment: string, workflowKey: string, sha: string | null): string {
  return uuidv5(`${environment}\n${workflowKey}\n${sha ?? ''}`, WORKFLOW_VERSION_NAMESPACE);
}

/** An environment's id (delivery logs' `environment_id`), from its slug, which never changes. */
export function environmentId(slug: string): string {
  return uuidv5(slug, ENVIRONMENT_NAMESPACE);
}
