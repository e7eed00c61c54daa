import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The service's external address as this request reached it (no trailing slash); see publicUrlOf. */
    readonly publicUrl: string;
  }
}

/**
 * The service's external address for a request: `PUBLIC_URL` when it is set, otherwise the
 * request's own origin as Fastify reads it (with `trustProxy`, the last `X-Forwarded-Proto` and
 * `X-Forwarded-Host` a proxy added, else the connection and the `Host` header). Absolute URLs the
 * API answers with (a bulk operation's `progress_path`) start with it.
 */
export function publicUrlOf(publicUrl: string | undefined, request: Pick<FastifyRequest, 'protocol' | 'host'>): string {
  if (publicUrl) return publicUrl.replace(/\/+$/, '');
  return `${request.protocol}://${request.host}`;
}

/** Gives every request `publicUrl`, computed when read. */
export function decoratePublicUrl(fastify: FastifyInstance, publicUrl: string | undefined): void {
  fastify.decorateRequest('publicUrl', {
    getter(this: FastifyRequest) {
      return publicUrlOf(publicUrl, this);
    },
  });
}

/** The request's public URL (see publicUrlOf) as a handler parameter. */
export const PublicUrl = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): string => ctx.switchToHttp().getRequest<FastifyRequest>().publicUrl,
);
