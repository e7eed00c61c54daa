import { Controller, Header } from '@nestjs/common';
import { allRoutes, API_VERSION, openApiJsonRoute, openApiYamlRoute } from '@notify/contracts';
import { buildOpenApiDocument, Endpoint } from '@notify/http';

@Controller()
export class OpenApiController {
  private document?: Record<string, unknown>;

  private get doc() {
    this.document ??= buildOpenApiDocument(allRoutes(), API_VERSION);
    return this.document;
  }

  @Endpoint(openApiJsonRoute)
  json() {
    return this.doc;
  }

  @Endpoint(openApiYamlRoute)
  @Header('content-type', 'application/yaml; charset=utf-8')
  async yaml() {
    const { stringify } = await import('yaml'); // loaded on first use, not at every start
    return stringify(this.doc);
  }
}
