import { SECRET_BOX, SecretBox, SourceTemplates } from '@notify/application';
import { TemplateEngine } from '@notify/templating';

export const SOURCE_TEMPLATES = Symbol('SOURCE_TEMPLATES');
export const SOURCE_INGEST_SECRET = Symbol('SOURCE_INGEST_SECRET');

/**
 * Liquid of mapping parameters, rendered by the engine that renders messages. The engine's scope
 * has Knock's names (data, recipient, ...), so the event is passed as data and `body` and
 * `headers` are assigned first: a mapping writes `{{ body.user.email | downcase }}`.
 */
export function sourceTemplates(engine: TemplateEngine): SourceTemplates {
  const PRELUDE = '{% assign body = data.body %}{% assign headers = data.headers %}';
  return {
    check: (source) => engine.validate(source).map((e) => ({ message: e.message, line: e.line })),
    async render(source, payload) {
      const result = await engine.render(PRELUDE + source, {
        recipient: null,
        actor: null,
        tenant: null,
        data: { body: payload.body, headers: payload.headers },
        vars: {},
        workflow: null,
      });
      return result.ok ? result.output : '';
    },
  };
}

export const sourceDepsProviders = [
  { provide: TemplateEngine, useFactory: () => new TemplateEngine() },
  { provide: SOURCE_TEMPLATES, inject: [TemplateEngine], useFactory: sourceTemplates },
  { provide: SOURCE_INGEST_SECRET, inject: [SECRET_BOX], useFactory: (box: SecretBox) => box.subkey('source-ingest-keys') },
];
