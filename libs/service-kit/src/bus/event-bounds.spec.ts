import { randomUUID } from 'node:crypto';
import { EVENT_TEXT_LIMITS, noteCreatedData, type EventEnvelope } from '@gl/contracts';
import { InvalidArgumentError, TimeoutError, RequestError } from '@nats-io/nats-core';
import { JetStreamApiError } from '@nats-io/jetstream';
import { excerpt, isWholeText } from './excerpt';
import {
  DEFAULT_MAX_PAYLOAD,
  HEADER_ALLOWANCE,
  UnpublishableEventError,
  encodeEnvelope,
  forgetMaxPayload,
  maxEventBytes,
  trackMaxPayload,
} from './payload-limit';
import { RejectedEventError, isMessageRejection } from './publish-errors';

describe('excerpt', () => {
  it('When the text fits, then it is returned unchanged', () => {
    expect(excerpt('Fix the login page', 70)).toBe('Fix the login page');
    expect(excerpt('x'.repeat(70), 70)).toBe('x'.repeat(70));
    expect(excerpt(null, 70)).toBeNull();
  });

  it("When the text is longer, then it keeps its start and '...' within the bound (ActiveSupport truncate)", () => {
    // GitLab's EventsHelper spec: the first line truncated to 70 is message[0..66] + "...".
    const message = `foo & bar ${'A'.repeat(70)}`;
    expect(excerpt(message, 70)).toBe(`${message.slice(0, 67)}...`);
    expect(excerpt(message, 70)).toHaveLength(70);
  });

  it('When the cut falls inside a surrogate pair, then the whole character is dropped', () => {
    const text = `${'a'.repeat(6)}😀${'b'.repeat(10)}`; // the emoji takes code units 6 and 7
    const cut = excerpt(text, 10); // 7 units before "...": the emoji's second half would be cut
    expect(cut).toBe('aaaaaa...');
  });

  it('When the bound is smaller than the omission, then the text is cut without one', () => {
    expect(excerpt('abcdef', 2)).toBe('ab');
  });

  it('When an excerpt is asked whether it is the whole text, then only one that may have been cut says no', () => {
    expect(isWholeText(excerpt('Fix it', 10), 10)).toBe(true);
    expect(isWholeText(excerpt('x'.repeat(10), 10), 10)).toBe(true);
    expect(isWholeText(excerpt('x'.repeat(11), 10), 10)).toBe(false);
    expect(isWholeText(excerpt(`${'a'.repeat(6)}😀${'b'.repeat(10)}`, 10), 10)).toBe(false);
    // A text that is exactly as long as a cut and ends as one reads as cut: its reader reads the original.
    expect(isWholeText('abcdefg...', 10)).toBe(false);
  });

  it('When a note of a million characters is excerpted, then the event data passes its schema', () => {
    const data = {
      noteId: 1,
      noteType: null,
      discussionId: 'a'.repeat(40),
      body: excerpt('x'.repeat(1_000_000), EVENT_TEXT_LIMITS.noteBody),
      system: false,
      createdAt: new Date().toISOString(),
      noteableType: 'Epic',
      noteableId: 1,
      noteableIid: 1,
      commitId: null,
      targetTitle: excerpt('t'.repeat(10_000), EVENT_TEXT_LIMITS.title),
    };
    expect(noteCreatedData.safeParse(data).success).toBe(true);
    expect(data.body).toHaveLength(EVENT_TEXT_LIMITS.noteBody);
    expect(noteCreatedData.safeParse({ ...data, body: 'x'.repeat(1_001) }).success).toBe(false);
  });
});

describe('the bus payload limit', () => {
  const envelope = (data: Record<string, unknown>, type = 'gl.unit.thing.created'): EventEnvelope => ({
    id: randomUUID(),
    type,
    version: 1,
    occurredAt: new Date().toISOString(),
    producer: 'unit',
    correlationId: null,
    actor: null,
    projectId: null,
    groupId: null,
    data,
  });
  const owner = {};
  afterEach(() => forgetMaxPayload(owner));

  it('When no bus is connected, then the NATS default applies', () => {
    expect(maxEventBytes()).toBe(DEFAULT_MAX_PAYLOAD - HEADER_ALLOWANCE);
  });

  it('When an envelope fits the connected server, then it is stored as its JSON', () => {
    trackMaxPayload(owner, 4_096);
    const small = envelope({ body: 'hello' });
    expect(encodeEnvelope(small)).toBe(JSON.stringify(small));
  });

  it("When an envelope is larger than the server's max_payload, then writing it fails", () => {
    trackMaxPayload(owner, 4_096);
    const big = envelope({ body: 'é'.repeat(2_000) }); // 2,000 characters, 4,000 bytes
    expect(() => encodeEnvelope(big)).toThrow(UnpublishableEventError);
    expect(() => encodeEnvelope(big)).toThrow(/bytes, over the bus limit of 3968/);
  });

  it('When the type is not a subject of the stream, then writing it fails', () => {
    expect(() => encodeEnvelope(envelope({}, 'gl.unit.thing created'))).toThrow(/not a valid subject/);
    expect(() => encodeEnvelope(envelope({}, 'other.unit.thing.created'))).toThrow(UnpublishableEventError);
  });
});

describe('publish failures', () => {
  it('When the broker refuses the message itself, then it is a rejection', () => {
    expect(isMessageRejection(InvalidArgumentError.format('payload', 'max_payload size exceeded'))).toBe(
      true,
    );
    expect(isMessageRejection(new RejectedEventError('stored event is not JSON'))).toBe(true);
    const tooBig = new JetStreamApiError({
      code: 400,
      err_code: 10054,
      description: 'message size exceeds maximum allowed',
    });
    expect(isMessageRejection(tooBig)).toBe(true);
  });

  it('When the broker is unreachable, busy or re-creating its stream, then it is not', () => {
    expect(isMessageRejection(new TimeoutError())).toBe(false);
    expect(isMessageRejection(new RequestError('no responders'))).toBe(false);
    expect(isMessageRejection(new Error('connection closed'))).toBe(false);
    const unavailable = new JetStreamApiError({ code: 503, err_code: 10008, description: 'unavailable' });
    expect(isMessageRejection(unavailable)).toBe(false);
    const noStream = new JetStreamApiError({ code: 404, err_code: 10059, description: 'stream not found' });
    expect(isMessageRejection(noStream)).toBe(false);
  });
});
