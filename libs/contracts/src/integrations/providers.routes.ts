import { z } from 'zod';
import { queryInt } from '../http/pagination';
import { defineRoute } from '../http/route';

/**
 * Provider lookups: reads from Slack's and Microsoft Teams' APIs for a connected recipient (the
 * object or user whose channel data holds the Slack access token or the Teams tenant id), by
 * the chat channel's id. Shapes as the reference.
 */

/** A recipient reference as a JSON string: `{"collection":"projects","object_id":"p1"}`, or a user id. */
const RecipientReference = z.string().min(1).max(1024);
const ChannelPath = z.object({ channel_id: z.uuid() });

const queryBoolean = z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean());

const Ok = z.object({ ok: z.string() }).meta({ id: 'ProviderSuccessResponse' });

export const SlackChannelsQuery = z.object({
  access_token_object: RecipientReference,
  query_options: z
    .object({
      cursor: z.string().max(1024).optional(),
      limit: queryInt(z.number().int().min(1).max(1000)).optional(),
      exclude_archived: queryBoolean.optional(),
      types: z
        .string()
        .regex(
          /^(public_channel|private_channel|mpim|im)(,(public_channel|private_channel|mpim|im))*$/,
          'a comma-separated list of public_channel, private_channel, mpim, im',
        )
        .optional(),
      team_id: z.string().max(255).optional(),
    })
    .optional(),
});

export const listSlackChannelsRoute = defineRoute({
  operationId: 'listChannelsForSlackProvider',
  method: 'GET',
  path: '/v1/providers/slack/{channel_id}/channels',
  summary: "List the Slack channels a connected recipient's access token sees (Slack conversations.list)",
  tags: ['Providers'],
  auth: 'secret',
  rateTier: 2,
  params: ChannelPath,
  query: SlackChannelsQuery,
  response: z
    .object({
      slack_channels: z.array(
        z.object({ id: z.string(), name: z.string(), is_private: z.boolean(), is_im: z.boolean(), context_team_id: z.string() }),
      ),
      next_cursor: z.string().nullable(),
    })
    .meta({ id: 'ChannelsForSlackProviderResponse' }),
});

const SlackTokenQuery = z.object({ access_token_object: RecipientReference });

export const slackAuthCheckRoute = defineRoute({
  operationId: 'slackProviderAuthCheck',
  method: 'GET',
  path: '/v1/providers/slack/{channel_id}/auth_check',
  summary: "Check that a connected recipient's Slack access token still works (Slack auth.test)",
  tags: ['Providers'],
  auth: 'secret',
  rateTier: 2,
  params: ChannelPath,
  query: SlackTokenQuery,
  response: z
    .object({ connection: z.object({ ok: z.boolean(), reason: z.string().nullable().optional() }) })
    .meta({ id: 'SlackAuthCheckResponse' }),
});

export const slackRevokeAccessRoute = defineRoute({
  operationId: 'slackProviderRevokeAccess',
  method: 'PUT',
  path: '/v1/providers/slack/{channel_id}/revoke_access',
  summary: "Revoke a connected recipient's Slack access token (Slack auth.revoke) and remove it from its channel data",
  tags: ['Providers'],
  auth: 'secret',
  rateTier: 2,
  params: ChannelPath,
  query: SlackTokenQuery,
  response: Ok,
});

const TenantQuery = z.object({ ms_teams_tenant_object: RecipientReference });
const GraphOptions = {
  $filter: z.string().max(1024).optional(),
  $select: z.string().max(1024).optional(),
};

export const msTeamsAuthCheckRoute = defineRoute({
  operationId: 'msTeamsProviderAuthCheck',
  method: 'GET',
  path: '/v1/providers/ms-teams/{channel_id}/auth_check',
  summary: "Check that the Teams app can sign in to a connected recipient's Microsoft Entra tenant",
  tags: ['Providers'],
  auth: 'secret',
  rateTier: 2,
  params: ChannelPath,
  query: TenantQuery,
  response: z
    .object({
      connection: z.object({
        ok: z.boolean(),
        ms_teams_tenant_id: z.string().nullable().optional(),
        reason: z.string().nullable().optional(),
      }),
    })
    .meta({ id: 'MsTeamsAuthCheckResponse' }),
});

export const listMsTeamsTeamsRoute = defineRoute({
  operationId: 'listTeamsForMsTeamsProvider',
  method: 'GET',
  path: '/v1/providers/ms-teams/{channel_id}/teams',
  summary: "List the teams of a connected recipient's Microsoft Entra tenant (Microsoft Graph)",
  tags: ['Providers'],
  auth: 'secret',
  rateTier: 2,
  params: ChannelPath,
  query: TenantQuery.extend({
    query_options: z
      .object({ ...GraphOptions, $top: queryInt(z.number().int().min(1).max(999)).optional(), $skiptoken: z.string().max(2048).optional() })
      .optional(),
  }),
  response: z
    .object({
      ms_teams_teams: z.array(z.object({ id: z.string(), displayName: z.string(), description: z.string().nullable().optional() })),
      skip_token: z.string().nullable(),
    })
    .meta({ id: 'TeamsForMsTeamsProviderResponse' }),
});

export const listMsTeamsChannelsRoute = defineRoute({
  operationId: 'listChannelsForMsTeamsProvider',
  method: 'GET',
  path: '/v1/providers/ms-teams/{channel_id}/channels',
  summary: 'List the channels of a team in a connected Microsoft Entra tenant (Microsoft Graph)',
  tags: ['Providers'],
  auth: 'secret',
  rateTier: 2,
  params: ChannelPath,
  query: TenantQuery.extend({ team_id: z.string().min(1).max(255), query_options: z.object(GraphOptions).optional() }),
  response: z
    .object({
      ms_teams_channels: z.array(
        z.object({
          id: z.string(),
          displayName: z.string(),
          description: z.string().nullable().optional(),
          createdDateTime: z.string().optional(),
          isArchived: z.boolean().optional(),
          membershipType: z.string().optional(),
        }),
      ),
    })
    .meta({ id: 'ChannelsForMsTeamsProviderResponse' }),
});

export const msTeamsRevokeAccessRoute = defineRoute({
  operationId: 'msTeamsProviderRevokeAccess',
  method: 'PUT',
  path: '/v1/providers/ms-teams/{channel_id}/revoke_access',
  summary: "Remove the Microsoft Entra tenant id from a connected recipient's Teams channel data",
  tags: ['Providers'],
  auth: 'secret',
  rateTier: 2,
  params: ChannelPath,
  query: TenantQuery,
  response: Ok,
});
