import { Controller, Req, Res } from '@nestjs/common';
import {
  oneClickUnsubscribeRoute,
  preferencePageRoute,
  RouteInput,
  savePreferencePageRoute,
  unsubscribePageRoute,
} from '@notify/contracts';
import { DomainError } from '@notify/domain';
import { Endpoint, Input } from '@notify/http';
import { FastifyReply, FastifyRequest } from 'fastify';
import { HtmlAnswer, PreferencePage } from './preference-page.service';

/** The hosted preference page and one-click unsubscribe: HTML, reached by signed links (ADR 0190). */
@Controller()
export class PreferencePageController {
  constructor(private readonly page: PreferencePage) {}

  @Endpoint(preferencePageRoute)
  async show(@Input() { params }: RouteInput<typeof preferencePageRoute>, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return send(request, reply, await this.page.show(params.token));
  }

  @Endpoint(savePreferencePageRoute)
  async save(
    @Input() { params, body }: RouteInput<typeof savePreferencePageRoute>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    // The page posts an HTML form, where a box left unticked is not sent and means off. Any other
    // encoding (JSON above all, where absent keys mean "unchanged" everywhere else in this API) would
    // read as every box unticked: refused, writing nothing.
    if (!isForm(request.headers['content-type']))
      throw new DomainError(
        'unsupported_media_type',
        'The preference page takes its form as application/x-www-form-urlencoded or multipart/form-data; use the preferences API for JSON',
        'unsupported_media_type',
      );
    return send(request, reply, await this.page.save(params.token, body ?? {}));
  }

  @Endpoint(unsubscribePageRoute)
  async confirm(@Input() { params }: RouteInput<typeof unsubscribePageRoute>, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return send(request, reply, await this.page.confirmUnsubscribe(params.token));
  }

  @Endpoint(oneClickUnsubscribeRoute)
  async unsubscribe(
    @Input() { params }: RouteInput<typeof oneClickUnsubscribeRoute>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    return send(request, reply, await this.page.unsubscribe(params.token));
  }
}

/**
 * The page, never cached or framed, and (a link names a person) never sent on as a referrer. A
 * refusal is an HTML error page for a browser (it asks for text/html) and the API's error shape
 * for any other client (a mail provider's one-click POST, scripts).
 */
function send(request: FastifyRequest, reply: FastifyReply, answer: HtmlAnswer) {
  if (answer.error && !/\btext\/html\b/.test(String(request.headers.accept ?? '')))
    return reply
      .status(answer.status)
      .header('cache-control', 'no-store')
      .send({ ...answer.error, status: answer.status });
  return reply
    .status(answer.status)
    .header('cache-control', 'no-store')
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'no-referrer')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'")
    .type('text/html; charset=utf-8')
    .send(answer.html);
}

const isForm = (contentType: string | undefined) =>
  /^\s*(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(contentType ?? '');
