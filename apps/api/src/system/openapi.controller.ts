import { Controller, Header } from '@nestjs/common';
import { allRoutes, API_VERSION, openApiJsonRoute, openApiYamlRoute } from '@notify/contracts';
import { buildOpenApiDocument, Endpoint } from '@notify/http';
import { stringify } from 'yaml';

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
  yaml() {
    return stringify(this.doc);
  }
}
