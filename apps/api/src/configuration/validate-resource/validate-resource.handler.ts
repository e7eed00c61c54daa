import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { contentSha } from '@notify/application';
import { invalidParams } from '@notify/domain';
import { ConfigResourceQueries } from '@notify/projections/config-resources';
import { assertSameKey } from '../shared/resource-ids';
import { ResourceChecks } from '../shared/resource-deps';
import { RESOURCE_KINDS } from '../shared/resource-kinds';
import { ValidateResourceCommand } from './validate-resource.command';

/** Runs every check an upsert runs and writes nothing: the resource as it would be saved, or 422 with every problem. */
@CommandHandler(ValidateResourceCommand)
export class ValidateResourceHandler implements ICommandHandler<ValidateResourceCommand> {
  constructor(
    private readonly resources: ConfigResourceQueries,
    private readonly checks: ResourceChecks,
  ) {}

  async execute({ ctx, type, ids, body }: ValidateResourceCommand): Promise<Record<string, unknown>> {
    const kind = RESOURCE_KINDS[type];
    assertSameKey(kind.wrapper, ids, body);
    const { content, errors } = await kind.check(kind.normalize(body, ids), this.checks.in(ctx.environment));
    if (errors.length)
      throw invalidParams(
        errors.map((e) => ({ ...e, field: `${kind.wrapper}.${e.field}` })),
        `The ${kind.label} is not valid`,
      );
    const existing = await this.resources.get(ctx.environment, type, ids.identifier);
    const now = new Date();
    const record = {
      environment: ctx.environment,
      type,
      identifier: ids.identifier,
      content,
      sha: contentSha(content),
      valid: true,
      errors: [],
      active: existing?.active ?? false,
      activeFrom: existing?.activeFrom ?? null,
      activeUntil: existing?.activeUntil ?? null,
      hasUncommittedChanges: true,
      createdAt: existing?.createdAt ?? now,
      updatedAt: now,
    };
    return { [kind.wrapper]: kind.present(record, {}) };
  }
}
