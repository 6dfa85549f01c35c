import { createRelayTargets } from './relay-targets';

describe('relay targets', () => {
  it('When the relay starts, then its first pass reads every model and the queue', () => {
    expect(createRelayTargets().take()).toEqual({ models: 'all', queue: true });
  });

  it('When writes name their models, then the next pass reads those alone, and the one after nothing', () => {
    const targets = createRelayTargets();
    targets.take();
    targets.model('Note');
    targets.model('Noteable');
    targets.model('Note');
    const pass = targets.take();
    expect(pass.queue).toBe(false);
    expect([...(pass.models as Set<string>)].sort()).toEqual(['Note', 'Noteable']);
    expect(targets.take()).toEqual({ models: new Set(), queue: false });
  });

  it('When a delete recorded queue entries, then the next pass reads the queue too', () => {
    const targets = createRelayTargets();
    targets.take();
    targets.model('Note');
    targets.queue();
    expect(targets.take()).toEqual({ models: new Set(['Note']), queue: true });
  });

  it('When anything asks for everything, then a named model does not narrow the pass', () => {
    const targets = createRelayTargets();
    targets.take();
    targets.everything();
    targets.model('Note');
    expect(targets.take()).toEqual({ models: 'all', queue: true });
  });
});
