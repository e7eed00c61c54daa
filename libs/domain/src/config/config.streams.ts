/**
 * Stream names of the configuration aggregates. Versioned resources live per environment: each
 * environment has its own history of a workflow (its upserts there, its activations there).
 */
export const workflowStream = (environment: string, key: string) => `workflow-${environment}-${key}`;
export const partialStream = (environment: string, key: string) => `partial-${environment}-${key}`;
export const emailLayoutStream = (environment: string, key: string) => `email_layout-${environment}-${key}`;
export const messageTypeStream = (environment: string, key: string) => `message_type-${environment}-${key}`;
/** A guide's definition, activation and archiving in one environment. */
export const guideStream = (environment: string, key: string) => `guide-${environment}-${key}`;
/** An audience's definition (name, type); its members are on the audience's own stream (audienceStream). */
export const audienceDefinitionStream = (environment: string, key: string) => `audience_definition-${environment}-${key}`;
/** Translations are identified by locale, namespace and tenant: `en`, `en/billing`, `en/billing@tenant-1`. */
export const translationStream = (environment: string, identifier: string) => `translation-${environment}-${identifier}`;
/** Commits made in an environment, and commits promoted into it. */
export const commitLogStream = (environment: string) => `commits-${environment}`;
/** Variables and channel groups belong to the account, like channels; their values are kept per environment inside. */
export const variableStream = (key: string) => `variable-${key}`;
export const channelGroupStream = (key: string) => `channel_group-${key}`;
/** Tags belong to the account: one catalog for every environment. */
export const tagStream = (name: string) => `tag-${name}`;
/** Preference categories belong to the account; each environment has one preference center. */
export const preferenceCategoryStream = (name: string) => `preference_category-${name}`;
export const preferenceCenterStream = (environment: string) => `preference_center-${environment}`;
/** A branch of an environment ('~' keeps `development` + `a-b` apart from `development-a` + `b`). */
export const branchStream = (parent: string, slug: string) => `branch-${parent}~${slug}`;
/** A console login link (ADR 0210): one stream per link, so it is used at most once. */
export const consoleLoginStream = (linkId: string) => `console_login-${linkId}`;
/**
 * A member of the account, by a keyed hash of its lowercased address (ADR 0220): one member per
 * address, and no address in the stream id. `addressKey` is that hash (libs/application makes it).
 */
export const memberStream = (addressKey: string) => `member-${addressKey}`;
/** Before ADR 0220 a member's stream was keyed by its address: still read, never written but for its re-keying. */
export const legacyMemberStream = (email: string) => `member-${email.toLowerCase()}`;
/** An uploaded asset of the account. */
export const assetStream = (id: string) => `asset-${id}`;
