import { ErasureKeyStore } from '@notify/application';
import { RecordedEvent } from '@notify/eventstore';
import { ErasureReactor } from './erasure.reactor';

const event = (type: string, data: Record<string, unknown>, environment: string | null): RecordedEvent => ({
  id: `${type}-1`,
  type,
  streamId: 's',
  revision: 0,
  globalPosition: 1n,
  position: '01',
  data,
  metadata: { environment, schema_version: 1 },
  createdAt: new Date('2026-11-26T00:00:00Z'),
});

describe('erasure reactor', () => {
  it("destroys an erased user's key and a removed member's key (ADR 0220)", async () => {
    const destroyed: string[] = [];
    const keys = { destroy: async (subject: string) => (destroyed.push(subject), true) } as unknown as ErasureKeyStore;
    const reactor = new ErasureReactor(keys);
    expect(reactor.filter.eventTypes).toEqual(['UserErased', 'MemberRemoved']);
    await reactor.handle([
      event('UserErased', { user_id: 'u1' }, 'development'),
      event('MemberRemoved', { member_id: '00000000-0000-4000-8000-000000000001', email: { $erased: true } }, null),
    ]);
    expect(destroyed).toEqual(['development/user/u1', '/user/member-00000000-0000-4000-8000-000000000001']);
  });
});
