import { checkGuideStepValues, MessageTypeSchema } from './guide-content';

const banner: MessageTypeSchema = {
  semver: '1.0.0',
  variants: [
    {
      key: 'default',
      fields: [
        { type: 'text', key: 'title', settings: { required: true } },
        { type: 'boolean', key: 'dismissible' },
        { type: 'number', key: 'priority' },
        { type: 'select', key: 'tone', settings: { options: [{ value: 'info' }, { value: 'warning' }] } },
        { type: 'multi_select', key: 'tags' },
        { type: 'button', key: 'cta' },
        { type: 'json', key: 'extra' },
      ],
    },
  ],
};
const step = (values: Record<string, unknown>, more: Partial<{ schema_key: string; schema_variant_key: string }> = {}) => ({
  schema_key: 'banner',
  schema_variant_key: 'default',
  values,
  ...more,
});
const fields = (values: Record<string, unknown>, more = {}) =>
  checkGuideStepValues(step(values, more), banner, 'guide.steps.0').map((e) => `${e.field}:${e.type}`);

describe('checkGuideStepValues', () => {
  it('accepts values of declared fields of the right types', () => {
    expect(
      fields({ title: 'Hi', dismissible: false, priority: 2, tone: 'info', tags: ['a'], cta: { text: 'Go' }, extra: [1, { a: 2 }] }),
    ).toEqual([]);
    expect(fields({ title: 'Hi', priority: null })).toEqual([]);
  });

  it('names an unknown field, a value of the wrong type, an option not offered and a missing required field', () => {
    expect(fields({ title: 'Hi', colour: 'red' })).toEqual(['guide.steps.0.values.colour:unknown_field']);
    expect(fields({ title: 1, dismissible: 'yes', priority: '2', tags: 'a', cta: 'Go' })).toEqual([
      'guide.steps.0.values.title:type',
      'guide.steps.0.values.dismissible:type',
      'guide.steps.0.values.priority:type',
      'guide.steps.0.values.tags:type',
      'guide.steps.0.values.cta:type',
    ]);
    expect(fields({ title: 'Hi', tone: 'loud' })).toEqual(['guide.steps.0.values.tone:option']);
    expect(fields({ dismissible: true })).toEqual(['guide.steps.0.values.title:required']);
    expect(fields({ title: '' })).toEqual(['guide.steps.0.values.title:required']);
  });

  it('names a missing message type or variant', () => {
    expect(checkGuideStepValues(step({ title: 'Hi' }), undefined, 'guide.steps.0')).toEqual([
      expect.objectContaining({ field: 'guide.steps.0.schema_key', type: 'reference' }),
    ]);
    expect(fields({ title: 'Hi' }, { schema_variant_key: 'wide' })).toEqual(['guide.steps.0.schema_variant_key:reference']);
  });
});
