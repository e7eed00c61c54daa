import { cancellationCovers } from './cancellation';

const ada = { type: 'user' as const, id: 'ada' };
const project = { type: 'object' as const, collection: 'projects', id: 'p1' };

describe('which runs a cancellation covers', () => {
  it('covers every run when no recipients are named', () => {
    expect(cancellationCovers(null, ada, null)).toBe(true);
  });

  it('covers the named users and objects only, whatever the key order of the reference', () => {
    expect(cancellationCovers([ada], ada, null)).toBe(true);
    expect(cancellationCovers([{ type: 'user', id: 'grace' }], ada, null)).toBe(false);
    expect(cancellationCovers([{ id: 'p1', collection: 'projects', type: 'object' } as never], project, null)).toBe(true);
    expect(cancellationCovers([{ type: 'object', collection: 'teams', id: 'p1' }], project, null)).toBe(false);
    // a user and an object with the same id are different recipients
    expect(cancellationCovers([{ type: 'user', id: 'p1' }], project, null)).toBe(false);
  });

  it('covers the runs an object fanned out to its subscribers when the object is named', () => {
    expect(cancellationCovers([project], ada, project)).toBe(true);
    expect(cancellationCovers([{ type: 'object', collection: 'projects', id: 'p2' }], ada, project)).toBe(false);
  });
});
