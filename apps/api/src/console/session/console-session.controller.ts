import { Controller, Inject, Req, Res } from '@nestjs/common';
import { redeemLoginLink } from '@notify/application';
import {
  ConsoleSessionT,
  createConsoleSessionRoute,
  deleteConsoleSessionRoute,
  getConsoleSessionRoute,
  MemberRoleT,
  RouteInput,
} from '@notify/contracts';
import { DomainError } from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import {
  Authenticator,
  clearedSessionCookie,
  CONSOLE_SESSION_COOKIE,
  consoleRole,
  ConsoleSessionSigner,
  cookieValue,
  Endpoint,
  Input,
  sessionCookie,
} from '@notify/http';
import { EVENT_STORE } from '@notify/platform';
import { FastifyReply, FastifyRequest } from 'fastify';

const invalidLink = () =>
  new DomainError('login_link_invalid', 'This login link is not valid or has expired; ask for a new one', 'unauthenticated');
const noSession = () => new DomainError('session_missing', 'Not signed in to the console, or the session has expired', 'unauthenticated');

type Member = NonNullable<Awaited<ReturnType<Authenticator['member']>>>;

function present(member: Member, expiresAt: number): ConsoleSessionT {
  return {
    member: { id: member.memberId, email: member.email, name: member.name, role: member.role as MemberRoleT },
    console_role: consoleRole(member.role),
    expires_at: new Date(expiresAt * 1000).toISOString(),
  };
}

/** Behind https (directly or as the proxy says) the cookie is Secure. */
const secure = (request: FastifyRequest) => request.protocol === 'https';

/**
 * Console sign-in for members (ADR 0210): a one-time login link for a session cookie, the
 * session of the cookie, sign-out. The cookie is read by the auth guard on every other route.
 */
@Controller()
export class ConsoleSessionController {
  constructor(
    private readonly sessions: ConsoleSessionSigner,
    private readonly auth: Authenticator,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  @Endpoint(createConsoleSessionRoute)
  async create(
    @Input() { body }: RouteInput<typeof createConsoleSessionRoute>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ConsoleSessionT> {
    const link = this.sessions.verifyLoginLink(body.login_token);
    if (!link) throw invalidLink();
    const member = await this.auth.member(link.memberId);
    if (!member) throw invalidLink();
    const session = this.sessions.session(member.memberId, link.linkId);
    await redeemLoginLink(
      this.store,
      {
        linkId: link.linkId,
        memberId: member.memberId,
        sessionExpiresAt: new Date(session.claims.expiresAt * 1000).toISOString(),
        now: new Date(session.claims.issuedAt * 1000).toISOString(),
      },
      { environment: null, request_id: String(request.id), correlation_id: String(request.id), actor: `member:${member.memberId}` },
    );
    void reply.header('set-cookie', sessionCookie(session.value, this.sessions.sessionTtlSeconds, secure(request)));
    void reply.header('cache-control', 'no-store');
    return present(member, session.claims.expiresAt);
  }

  @Endpoint(getConsoleSessionRoute)
  async get(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<ConsoleSessionT> {
    void reply.header('cache-control', 'no-store');
    const claims = this.sessions.verifySession(cookieValue(request.headers.cookie, CONSOLE_SESSION_COOKIE));
    if (!claims) throw noSession();
    const member = await this.auth.member(claims.memberId);
    if (!member) throw noSession();
    return present(member, claims.expiresAt);
  }

  @Endpoint(deleteConsoleSessionRoute)
  remove(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): void {
    void reply.header('set-cookie', clearedSessionCookie(secure(request)));
  }
}
