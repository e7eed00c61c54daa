/** The environment's own stream: its creation and its API keys. */
export const environmentStream = (slug: string) => `environment-${slug}`;

/** Account-wide facts that belong to no environment (service tokens). */
export const accountStream = () => 'account-default';

/** The actor recorded on what the service creates on its first start (its environments are `system` owned). */
export const BOOTSTRAP_ACTOR = 'system:bootstrap';
