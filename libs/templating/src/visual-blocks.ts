/**
 * An email's `visual_blocks` (the reference's block editor: markdown, html, divider, image,
 * button_set, partial) as one Liquid HTML source, rendered like an `html_body` afterwards: the
 * Liquid in markdown, html and button actions is evaluated then, markdown is turned into HTML by
 * the `from_markdown` filter after its Liquid, partials go through `{% render %}`. Literal values
 * of the blocks (image URLs, labels, colours) are escaped here, never evaluated as Liquid.
 */
export interface VisualBlock {
  type: string;
  content?: string;
  url?: string;
  action?: string | null;
  alt?: string | null;
  key?: string;
  attrs?: Record<string, unknown>;
  buttons?: {
    label: string;
    action: string;
    variant?: string;
    style_attrs?: Record<string, unknown>;
    size_attrs?: { is_fullwidth?: boolean; size?: string };
  }[];
  style_attrs?: Record<string, unknown>;
  layout_attrs?: Record<string, unknown>;
}

const escapeHtml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** Liquid in a literal is shown as written: its delimiters are emitted through Liquid string literals. */
const literal = (value: string) => escapeHtml(value).replace(/\{\{/g, `{{ '{{' }}`).replace(/\{%/g, `{{ '{%' }}`);

/** A CSS value from a block's settings, kept only if it is a plain colour or length. */
const cssValue = (value: unknown): string | undefined =>
  typeof value === 'string' && /^[#a-zA-Z0-9(),.% -]{1,50}$/.test(value) ? value : typeof value === 'number' ? `${value}px` : undefined;

function padding(layout: Record<string, unknown> | undefined): string {
  const side = (name: string) => (typeof layout?.[name] === 'number' ? `${layout[name] as number}px` : '0');
  return `padding:${side('padding_top')} ${side('padding_right')} ${side('padding_bottom')} ${side('padding_left')}`;
}

function align(layout: Record<string, unknown> | undefined): string {
  const a = layout?.horizontal_align;
  return a === 'center' || a === 'right' ? `;text-align:${a}` : '';
}

/** A partial's attribute as a Liquid literal, or undefined when it cannot be written as one. */
function liquidLiteral(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return String(value);
  if (value === null) return 'nil';
  if (typeof value !== 'string') return undefined;
  if (!value.includes('"')) return `"${value}"`;
  if (!value.includes("'")) return `'${value}'`;
  return undefined;
}

function button(b: NonNullable<VisualBlock['buttons']>[number], fullWidth: boolean): string {
  const style = b.style_attrs ?? {};
  const background = cssValue(style.background_color) ?? (b.variant === 'outline' ? 'transparent' : '#111827');
  const text = cssValue(style.text_color) ?? (b.variant === 'outline' ? '#111827' : '#ffffff');
  const border = cssValue(style.border_color) ?? (b.variant === 'outline' ? '#111827' : background);
  const radius = typeof style.border_radius === 'number' ? style.border_radius : 4;
  const width = typeof style.border_width === 'number' ? style.border_width : 1;
  const css = [
    'display:inline-block',
    'padding:10px 16px',
    'text-decoration:none',
    `background:${background}`,
    `color:${text}`,
    `border:${width}px solid ${border}`,
    `border-radius:${radius}px`,
    ...(fullWidth ? ['display:block', 'text-align:center'] : []),
  ].join(';');
  // The action is Liquid (a link built from the data); the label is literal.
  return `<a href="${b.action}" style="${css}">${literal(b.label)}</a>`;
}

export function visualBlocksToLiquid(blocks: readonly VisualBlock[]): string {
  return blocks
    .map((block, i) => {
      const wrap = (inner: string) => `<div style="${padding(block.layout_attrs)}${align(block.layout_attrs)}">${inner}</div>`;
      switch (block.type) {
        case 'markdown': {
          const name = `notify_visual_block_${i}`;
          return wrap(`{% capture ${name} %}${block.content ?? ''}{% endcapture %}{{ ${name} | from_markdown }}`);
        }
        case 'html':
          return wrap(block.content ?? '');
        case 'divider':
          return wrap('<hr style="border:none;border-top:1px solid #e5e7eb;margin:0">');
        case 'image': {
          const width = cssValue(block.style_attrs?.width);
          const img = `<img src="${literal(block.url ?? '')}" alt="${literal(block.alt ?? '')}" style="max-width:100%${width ? `;width:${width}` : ''}">`;
          return wrap(block.action ? `<a href="${literal(block.action)}">${img}</a>` : img);
        }
        case 'button_set': {
          const gap = typeof block.layout_attrs?.column_gap === 'number' ? (block.layout_attrs.column_gap as number) : 8;
          return wrap(
            (block.buttons ?? [])
              .map((b) => button(b, b.size_attrs?.is_fullwidth === true))
              .join(`<span style="display:inline-block;width:${gap}px"></span>`),
          );
        }
        case 'partial': {
          const params = Object.entries(block.attrs ?? {}).flatMap(([name, value]) => {
            const v = liquidLiteral(value);
            return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && v !== undefined ? [`${name}: ${v}`] : [];
          });
          const key = (block.key ?? '').replace(/["%}]/g, '');
          return wrap(`{% render "${key}"${params.length ? `, ${params.join(', ')}` : ''} %}`);
        }
        default:
          return '';
      }
    })
    .join('\n');
}
