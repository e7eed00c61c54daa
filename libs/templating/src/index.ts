export { TemplateEngine } from './template-engine';
export { renderMarkdown, htmlToText } from './markdown';
export { DEFAULT_LIMITS, type TemplateLimits } from './limits';
export { KNOCK_FILTERS } from './filters';
export type {
  EmailLayout,
  EmailRenderInput,
  EmailRenderResult,
  EscapeMode,
  PartialType,
  RenderOptions,
  RenderResult,
  TemplateContext,
  TemplateError,
  TemplateErrorCode,
  TemplateResources,
} from './types';
export { IsolatedRenderer, type IsolatedRendererOptions } from './isolation/isolated-renderer';
export type { TemplateRenderer } from './types';
export { visualBlocksToLiquid, type VisualBlock } from './visual-blocks';
