import { MAX_REPLICAS, parseReplicas, replicaNames, replicasFromCli } from './replicas';

const NAMES = ['boards', 'events', 'registry', 'registry-worker'] as const;

describe('replica counts', () => {
  it('When services are named with counts, then each gets its count', () => {
    expect(parseReplicas('events=2, boards=3,registry-worker=2', NAMES)).toEqual({
      events: 2,
      boards: 3,
      'registry-worker': 2,
    });
  });

  it.each([
    ['events', 'is not name=count'],
    ['events=two', 'is not name=count'],
    ['events=-1', 'is not name=count'],
    ['gateway=2', 'unknown process "gateway"'],
    ['events=0', 'events=0 is out of range'],
    [`events=${MAX_REPLICAS + 1}`, 'is out of range'],
    ['events=2,,boards=2', 'empty entry'],
    ['events=2,events=3', 'events is given twice'],
  ])('When the value is %s, then it is refused with a clear message', (spec, message) => {
    expect(() => parseReplicas(spec, NAMES)).toThrow(message);
  });

  it('When refused, then the message says what is allowed', () => {
    expect(() => parseReplicas('x=1', NAMES)).toThrow(
      `name one of boards, events, registry, registry-worker and count 1..${MAX_REPLICAS}`,
    );
  });
});

describe('replica counts from npm start', () => {
  it('When nothing is given, then every process runs once', () => {
    expect(replicasFromCli([], {}, NAMES)).toEqual({});
  });

  it('When GL_REPLICAS is set, then it is read; a flag wins for the kinds it names', () => {
    expect(replicasFromCli([], { GL_REPLICAS: 'events=2' }, NAMES)).toEqual({ events: 2 });
    expect(
      replicasFromCli(['--replicas', 'events=3,boards=2'], { GL_REPLICAS: 'events=2,registry=2' }, NAMES),
    ).toEqual({ events: 3, boards: 2, registry: 2 });
    expect(replicasFromCli(['--replicas=boards=2'], {}, NAMES)).toEqual({ boards: 2 });
  });

  it('When the flag is malformed or unknown, then it is refused naming where the mistake is', () => {
    expect(() => replicasFromCli(['--replicas'], {}, NAMES)).toThrow('--replicas needs a value');
    expect(() => replicasFromCli(['--replica', 'events=2'], {}, NAMES)).toThrow(
      'unknown argument "--replica"',
    );
    expect(() => replicasFromCli([], { GL_REPLICAS: 'events' }, NAMES)).toThrow('GL_REPLICAS: "events"');
  });
});

describe('replica process names', () => {
  it('When a kind runs several times, then the first keeps its name and the others are numbered', () => {
    expect(replicaNames('events', 3)).toEqual(['events', 'events-2', 'events-3']);
    expect(replicaNames('boards')).toEqual(['boards']);
  });
});
