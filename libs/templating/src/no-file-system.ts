import { Tag, type FS, type Liquid, type TagToken, type TopLevelToken } from 'liquidjs';

/**
 * Templates are customer input: the engine never touches a file system. liquidjs is given this
 * file system, and the tags that read files (`include`, `layout`) are replaced by tags that refuse
 * at parse time. Partials are looked up by key through `TemplateResources` instead.
 */
function refuse(): never {
  throw new Error('file system access is disabled in templates');
}

export const NO_FILE_SYSTEM: FS = {
  exists: async () => false,
  existsSync: () => false,
  readFile: async () => refuse(),
  readFileSync: () => refuse(),
  resolve: () => refuse(),
  contains: async () => false,
  containsSync: () => false,
  sep: '/',
  dirname: () => refuse(),
};

function unsupported(name: string, advice: string) {
  return class extends Tag {
    constructor(token: TagToken, remainTokens: TopLevelToken[], liquid: Liquid) {
      super(token, remainTokens, liquid);
      throw new Error(`the ${name} tag is not supported: ${advice}`);
    }
    render(): void {}
  };
}

export const IncludeTagDisabled = unsupported('include', 'use {% render "partial_key" %} to render a partial');
export const LayoutTagDisabled = unsupported('layout', 'email layouts are chosen by the email step, not by the template');
