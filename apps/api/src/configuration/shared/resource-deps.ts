import { Inject, Injectable } from '@nestjs/common';
import { TEMPLATE_CHECKER, TemplateChecker } from '@notify/application';
import { MessageTypeSchema } from '@notify/domain';
import { ChannelGroupQueries } from '@notify/projections/channel-groups';
import { ChannelQueries } from '@notify/projections/channels';
import { ConfigResourceQueries } from '@notify/projections/config-resources';
import { GoalQueries } from '@notify/projections/goals';
import { referencesIn } from './references';
import { CheckDeps } from './resource-kinds';

/** What checking a resource needs in one environment: its references and the Liquid checker. */
@Injectable()
export class ResourceChecks {
  constructor(
    private readonly channels: ChannelQueries,
    private readonly groups: ChannelGroupQueries,
    private readonly resources: ConfigResourceQueries,
    private readonly goals: GoalQueries,
    @Inject(TEMPLATE_CHECKER) private readonly templates: TemplateChecker,
  ) {}

  in(environment: string): CheckDeps {
    return {
      references: referencesIn(environment, { channels: this.channels, groups: this.groups, resources: this.resources, goals: this.goals }),
      templates: this.templates,
      messageType: async (key) => {
        const record = await this.resources.get(environment, 'message_type', key);
        return record && (record.content as unknown as MessageTypeSchema);
      },
    };
  }
}
