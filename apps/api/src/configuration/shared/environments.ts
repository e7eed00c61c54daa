import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@notify/database';
import { branchParent, DomainError } from '@notify/domain';
import { DATABASE } from '@notify/platform';
import { EnvironmentQueries, EnvironmentRecord } from '@notify/projections/environments';

/**
 * The order of environments decides where configuration is edited (an environment with none
 * before it) and where commits go when promoted (the next one).
 */
@Injectable()
export class EnvironmentOrder {
  private readonly queries: EnvironmentQueries;

  constructor(@Inject(DATABASE) database: Database) {
    this.queries = new EnvironmentQueries(database.dataSource);
  }

  /** Every environment's slug, in order. */
  async slugs(): Promise<string[]> {
    return (await this.queries.listEnvironments()).sort((a, b) => a.order - b.order).map((e) => e.slug);
  }

  async isEditable(slug: string): Promise<boolean> {
    return (await this.preceding(slug)) === undefined;
  }

  async assertEditable(slug: string): Promise<void> {
    const before = await this.preceding(slug);
    if (before) {
      throw new DomainError(
        'environment_not_editable',
        `Configuration is changed in ${before.slug} and promoted to ${slug}; commit there and promote`,
        'invalid_request',
      );
    }
  }

  /** A branch (ADR 0156) is edited in place: nothing precedes it. */
  async preceding(slug: string): Promise<EnvironmentRecord | undefined> {
    if (branchParent(slug) !== undefined) return undefined;
    const all = await this.queries.listEnvironments();
    const target = all.find((e) => e.slug === slug);
    if (!target) throw new DomainError('environment_missing', `No environment named ${slug}`, 'not_found');
    return all.filter((e) => e.order < target.order).sort((a, b) => b.order - a.order)[0];
  }

  /** A branch's commits go into the environment it was made off. */
  async next(slug: string): Promise<EnvironmentRecord | undefined> {
    const all = await this.queries.listEnvironments();
    const parent = branchParent(slug);
    if (parent !== undefined) return all.find((e) => e.slug === parent);
    const target = all.find((e) => e.slug === slug);
    if (!target) throw new DomainError('environment_missing', `No environment named ${slug}`, 'not_found');
    return all.filter((e) => e.order > target.order).sort((a, b) => a.order - b.order)[0];
  }
}
