import { TemplateChecker } from '@notify/application';

/**
 * Used until the templating library is wired in: Liquid is not checked, so a template error
 * shows up at send time instead of on upsert. Replaced by the liquidjs-backed checker.
 */
export const noTemplateChecks: TemplateChecker = { check: () => [] };
