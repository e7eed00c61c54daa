import { Controller, Inject, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RouteInput, trackedLinkRoute } from '@notify/contracts';
import { Endpoint, Input } from '@notify/http';
import { FastifyReply, FastifyRequest } from 'fastify';
import { FollowTrackedLinkCommand } from './follow-tracked-link.command';

@Controller()
export class FollowTrackedLinkController {
  constructor(@Inject(CommandBus) private readonly commands: CommandBus) {}

  @Endpoint(trackedLinkRoute)
  async follow(@Input() { params }: RouteInput<typeof trackedLinkRoute>, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const url = await this.commands.execute(new FollowTrackedLinkCommand(params.token, request.headers['user-agent']));
    return reply.redirect(url, 302);
  }
}
