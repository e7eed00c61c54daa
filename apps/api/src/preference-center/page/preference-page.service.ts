import { Inject, Injectable } from '@nestjs/common';
import { CommandMetadata, PreferenceLinkClaims, PreferenceLinkKind, PreferenceLinks, RecipientDeps } from '@notify/application';
import { APP_CONFIG, AppConfig } from '@notify/config';
import { PreferenceSetDataT, PreferenceSetRequestT, UserT } from '@notify/contracts';
import { emptyPreferenceSet, layerPreferenceSets } from '@notify/domain';
import { PREFERENCE_LINKS, ReadYourWrites } from '@notify/platform';
import { PreferenceCenterQueries } from '@notify/projections/preference-center';
import { PreferenceQueries } from '@notify/projections/preferences';
import { TenantQueries } from '@notify/projections/tenants';
import { UserQueries } from '@notify/projections/users';
import { randomUUID } from 'node:crypto';
import { RECIPIENT_DEPS } from '../../recipients/recipient-read-models.module';
import { updateRecipientAspects } from '../../recipients/recipient-aspects';
import { formRequest, formRows, shownRows, unsubscribeRequest } from './preference-form';
import { errorPage, preferencePage, unsubscribeConfirmPage, unsubscribedPage } from './preference-page.html';

/** An HTML answer: the status and the page. */
export interface HtmlAnswer {
  status: number;
  html: string;
  /** Refusals: the API error that a client not asking for HTML gets instead of the page. */
  error?: { code: string; message: string; type: string };
}

interface Opened {
  claims: PreferenceLinkClaims;
  user: UserT;
}

/**
 * The hosted preference page and one-click unsubscribe behind signed links (ADR 0190). A link that
 * was altered, made with another key or for the other kind of page is refused (403), an expired
 * one too (410), a link to a user that no longer exists is 404; nothing is read or written for
 * them. Saves go through the same preference set command as the API (a merge on the recipient's
 * `default` set, or on its set for the link's tenant).
 */
@Injectable()
export class PreferencePage {
  constructor(
    @Inject(PREFERENCE_LINKS) private readonly links: PreferenceLinks,
    @Inject(RECIPIENT_DEPS) private readonly deps: RecipientDeps,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly consistency: ReadYourWrites,
    private readonly centers: PreferenceCenterQueries,
    private readonly users: UserQueries,
    private readonly preferences: PreferenceQueries,
    private readonly tenants: TenantQueries,
  ) {}

  async show(token: string, saved = false): Promise<HtmlAnswer> {
    const opened = await this.open('page', token);
    if ('status' in opened) return opened;
    const { claims, user } = opened;
    const center = await this.centers.center(claims.environment);
    const rows = shownRows(center.config, center.enabled);
    const effective = await this.effective(claims);
    return {
      status: 200,
      html: preferencePage({
        title: center.config.title,
        body: center.config.body,
        accountName: center.config.show_account_name === false ? null : this.config.ACCOUNT_NAME,
        who: user.email ?? user.id,
        rows: formRows(rows, effective),
        saved,
      }),
    };
  }

  async save(token: string, fields: Record<string, string>): Promise<HtmlAnswer> {
    const opened = await this.open('page', token);
    if ('status' in opened) return opened;
    const { claims } = opened;
    const center = await this.centers.center(claims.environment);
    const own = await this.own(claims);
    await this.write(claims, formRequest(shownRows(center.config, center.enabled), own, fields));
    return this.show(token, true);
  }

  async confirmUnsubscribe(token: string): Promise<HtmlAnswer> {
    const opened = await this.open('unsubscribe', token);
    if ('status' in opened) return opened;
    return { status: 200, html: unsubscribeConfirmPage(opened.claims.categories ?? [], opened.user.email ?? opened.user.id) };
  }

  async unsubscribe(token: string): Promise<HtmlAnswer> {
    const opened = await this.open('unsubscribe', token);
    if ('status' in opened) return opened;
    const categories = opened.claims.categories ?? [];
    await this.write(opened.claims, unsubscribeRequest(categories, await this.own(opened.claims)));
    return { status: 200, html: unsubscribedPage(categories) };
  }

  private async open(kind: PreferenceLinkKind, token: string): Promise<Opened | HtmlAnswer> {
    const verified = this.links.verify(kind, token, new Date());
    if (!verified.ok)
      return verified.reason === 'expired'
        ? {
            status: 410,
            html: errorPage('This link has expired', 'Open the link of a more recent message, or ask for a new one.'),
            error: { code: 'link_expired', message: 'The link has expired', type: 'invalid_request_error' },
          }
        : {
            status: 403,
            html: errorPage('This link is not valid', 'The link is incomplete or was changed. Open it again from the message.'),
            error: { code: 'invalid_link', message: 'The link is not valid', type: 'authentication_error' },
          };
    const user = await this.users.get(verified.claims.environment, verified.claims.userId);
    if (!user)
      return {
        status: 404,
        html: errorPage('No preferences here', 'The recipient of this link no longer exists.'),
        error: { code: 'resource_missing', message: 'The user you requested does not exist', type: 'invalid_request_error' },
      };
    return { claims: verified.claims, user };
  }

  private setId(claims: PreferenceLinkClaims): string {
    return claims.tenant ?? 'default';
  }

  private async own(claims: PreferenceLinkClaims): Promise<PreferenceSetDataT> {
    const ref = { type: 'user' as const, id: claims.userId };
    return (await this.preferences.get(claims.environment, ref, this.setId(claims))) ?? emptyPreferenceSet();
  }

  /** What applies to the recipient (in the link's tenant): the tenant's default, the user's default set, the user's set for the tenant. */
  private async effective(claims: PreferenceLinkClaims): Promise<PreferenceSetDataT> {
    const ref = { type: 'user' as const, id: claims.userId };
    const own = await this.preferences.get(claims.environment, ref, 'default');
    if (!claims.tenant) return own ?? emptyPreferenceSet();
    const [tenantDefault, inTenant] = await Promise.all([
      this.tenants.defaultPreferenceSet(claims.environment, claims.tenant),
      this.preferences.get(claims.environment, ref, claims.tenant),
    ]);
    return layerPreferenceSets([tenantDefault, own, inTenant]);
  }

  private async write(claims: PreferenceLinkClaims, request: PreferenceSetRequestT): Promise<void> {
    const requestId = randomUUID();
    const metadata: CommandMetadata = {
      environment: claims.environment,
      request_id: requestId,
      correlation_id: requestId,
      actor: `preference_link:${claims.userId}`,
    };
    const outcome = await updateRecipientAspects(
      this.deps,
      claims.environment,
      { type: 'user', id: claims.userId },
      [{ type: 'SetPreferenceSet', preferenceSetId: this.setId(claims), request, strategy: 'merge', now: new Date().toISOString() }],
      metadata,
    );
    await this.consistency.settle(outcome.append, outcome.events);
  }
}
