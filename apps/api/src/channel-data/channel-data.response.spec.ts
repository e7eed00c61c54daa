import { withBothForms } from './channel-data.response';

describe('channel data in both forms', () => {
  it('answers push tokens as devices too, and device tokens as tokens too', () => {
    expect(withBothForms({ tokens: ['a', 'b'] })).toEqual({
      tokens: ['a', 'b'],
      devices: [
        { token: 'a', locale: null, timezone: null },
        { token: 'b', locale: null, timezone: null },
      ],
    });
    expect(withBothForms({ devices: [{ token: 'c', locale: 'fr' }] })).toEqual({
      tokens: ['c'],
      devices: [{ token: 'c', locale: 'fr', timezone: null }],
    });
  });

  it('lists a token named both ways once in each form, the device keeping its locale', () => {
    expect(withBothForms({ tokens: ['a', 'c'], devices: [{ token: 'c', locale: 'fr', timezone: 'Europe/Paris' }] })).toEqual({
      tokens: ['a', 'c'],
      devices: [
        { token: 'c', locale: 'fr', timezone: 'Europe/Paris' },
        { token: 'a', locale: null, timezone: null },
      ],
    });
  });

  it('does the same for Amazon SNS target ARNs, and leaves other channel data as it is', () => {
    expect(withBothForms({ target_arns: ['arn:1'] })).toEqual({
      target_arns: ['arn:1'],
      devices: [{ target_arn: 'arn:1', locale: null, timezone: null }],
    });
    expect(withBothForms({ devices: [{ target_arn: 'arn:2' }] })).toEqual({
      target_arns: ['arn:2'],
      devices: [{ target_arn: 'arn:2', locale: null, timezone: null }],
    });
    const slack = { connections: [{ incoming_webhook: { url: 'https://hooks.example/x' } }] };
    expect(withBothForms(slack)).toBe(slack);
    expect(withBothForms({ player_ids: ['p'] })).toEqual({ player_ids: ['p'] });
  });
});
