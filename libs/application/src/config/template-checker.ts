/**
 * How configuration checks Liquid. The templating library (libs/templating) provides the real
 * one; this port keeps validation and preview independent of it.
 */
export interface TemplateProblem {
  message: string;
  line?: number;
}

export interface TemplateChecker {
  /** Problems that keep `source` from rendering (syntax, unknown tags or filters, size). */
  check(source: string): TemplateProblem[];
}

export const TEMPLATE_CHECKER = Symbol('TEMPLATE_CHECKER');
