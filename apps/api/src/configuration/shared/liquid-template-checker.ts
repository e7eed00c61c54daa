import { TemplateChecker } from '@notify/application';
import { TemplateEngine } from '@notify/templating';

/** Liquid checked by the engine that renders it: syntax, unknown tags and filters, size. */
export function liquidTemplateChecker(engine: TemplateEngine): TemplateChecker {
  return { check: (source) => engine.validate(source).map((e) => ({ message: e.message, line: e.line })) };
}
