import { natsClusterFromCli } from './nats-cluster';

describe('nats cluster size', () => {
  it('When nothing asks for a cluster, then one server runs and the arguments pass on', () => {
    expect(natsClusterFromCli(['--replicas', 'events=2'], {})).toEqual({
      nodes: 1,
      rest: ['--replicas', 'events=2'],
    });
  });

  it('When the flag and the setting both give a size, then the flag wins', () => {
    const env = { GL_NATS_CLUSTER: '5' };
    expect(natsClusterFromCli(['--nats-cluster', '3'], env)).toEqual({ nodes: 3, rest: [] });
    expect(natsClusterFromCli(['--nats-cluster=3', '--replicas=events=2'], env)).toEqual({
      nodes: 3,
      rest: ['--replicas=events=2'],
    });
    expect(natsClusterFromCli([], env).nodes).toBe(5);
  });

  it.each([['2'], ['4'], ['0'], ['three'], ['9']])(
    'When the size is %s, then it is refused with the sizes allowed',
    (size) => {
      expect(() => natsClusterFromCli(['--nats-cluster', size], {})).toThrow('use 1, 3, 5');
      expect(() => natsClusterFromCli([], { GL_NATS_CLUSTER: size })).toThrow('GL_NATS_CLUSTER');
    },
  );

  it('When the flag has no value, then it is refused', () => {
    expect(() => natsClusterFromCli(['--nats-cluster'], {})).toThrow('needs a size');
    expect(() => natsClusterFromCli(['--nats-cluster', '--replicas'], {})).toThrow('needs a size');
  });
});
