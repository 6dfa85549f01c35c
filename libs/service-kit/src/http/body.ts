import { isUtf8 } from 'node:buffer';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import busboy from 'busboy';
import { HttpError, ParamError } from '../errors';
import { JSON_LIMIT_MESSAGES, jsonLimitBroken, jsonNestingExceeds } from './json-limits';
import { hasIllFormedString, paramsHaveNullByte, percentDecode, sendMalformed } from './malformed';
import { parseNestedParams, parseQueryString, type ParamObject } from './nested-params';

/**
 * 10 MiB. GitLab itself takes far larger bodies (nginx `client_max_body_size`, 250m in Omnibus), and its
 * text limits count characters: a description of 1,048,576 characters
 * (Issuable::DESCRIPTION_LENGTH_MAX) or a note of 1,000,000 can be 4 MB of UTF-8 and more once
 * JSON-escaped, so a 1 MiB cap answered 413 where GitLab answers 400 with the model's message. Bodies are
 * read into memory and stored in MongoDB documents (16 MiB at most), hence a cap at all.
 */
export const DEFAULT_BODY_LIMIT = 10 * 1024 * 1024;

/** Thrown by the body reader when GitLab's HandleMalformedStrings would refuse the parameters. */
class MalformedBodyError extends Error {}

/** Grape's InvalidMessageBody text, for JSON that does not parse. */
const INVALID_BODY = 'message body does not match declared format';

declare module 'express-serve-static-core' {
  interface Request {
    /** The raw body bytes, for routes that must measure or re-read the payload (alert ingestion). */
    rawBody?: Buffer;
  }
}

function readRaw(req: Request, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limit) {
      req.resume();
      reject(new HttpError(413, { message: '413 Request Entity Too Large' }));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        req.resume();
        reject(new HttpError(413, { message: '413 Request Entity Too Large' }));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
    // A request paused on purpose (the edge's body count, limitRequestBody) does not start flowing when a
    // listener is added.
    req.resume();
  });
}

function parseMultipart(req: Request, raw: Buffer): Promise<ParamObject> {
  return new Promise((resolve, reject) => {
    const fields: [string, string][] = [];
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { fields: 1000, fileSize: raw.length } });
    } catch {
      reject(new ParamError([INVALID_BODY]));
      return;
    }
    parser.on('field', (name, value) => fields.push([name, value]));
    // Attachments are not part of this API surface; drain them so parsing completes.
    parser.on('file', (_name, stream) => stream.resume());
    parser.on('close', () => resolve(parseNestedParams(fields)));
    parser.on('error', () => reject(new ParamError([INVALID_BODY])));
    parser.end(raw);
  });
}

/**
 * Reads the body of any content type our clients send (JSON, form, multipart) into `req.body`.
 * Empty bodies are accepted whatever the content type says: python-gitlab sends an empty body with a JSON
 * content type on DELETE and GET.
 */
export function readBody(limit = DEFAULT_BODY_LIMIT): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    // Without Content-Length or Transfer-Encoding a request has no body (RFC 9112, 6.3): most GETs. Their
    // empty body is settled here instead of waiting for the stream's end a tick later.
    if (req.headers['transfer-encoding'] === undefined && req.headers['content-length'] === undefined) {
      req.rawBody = Buffer.alloc(0);
      req.body = {};
      next();
      return;
    }
    void (async () => {
      const raw = await readRaw(req, limit);
      req.rawBody = raw;
      const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (raw.length === 0 || raw.toString('utf8').trim() === '') {
        req.body = {};
      } else if (type === 'application/json' || type.endsWith('+json')) {
        req.body = parseJson(raw);
        if (hasIllFormedString(req.body)) throw new MalformedBodyError();
      } else if (type === 'application/x-www-form-urlencoded') {
        // Rack refuses a form body with a bad escape or invalid UTF-8 (NUL bytes: checked below).
        const bytes = percentDecode(raw.toString('latin1'), true);
        if (bytes === null || !isUtf8(bytes)) throw new MalformedBodyError();
        req.body = parseQueryString(raw.toString('utf8'));
      } else if (type === 'multipart/form-data') {
        req.body = await parseMultipart(req, raw);
      } else {
        req.body = {};
      }
      if (paramsHaveNullByte(req.body)) throw new MalformedBodyError();
    })().then(
      () => next(),
      (err: unknown) => (err instanceof MalformedBodyError ? sendMalformed(res) : next(err)),
    );
  };
}

/**
 * JSON bodies: invalid UTF-8 is not JSON (Ruby's parser refuses it; Node would silently substitute
 * U+FFFD), and GitLab's JsonValidation limits apply before anything walks the parsed value.
 */
function parseJson(raw: Buffer): unknown {
  if (!isUtf8(raw)) throw new ParamError([INVALID_BODY]);
  const text = raw.toString('utf8');
  if (jsonNestingExceeds(text)) throw new ParamError([JSON_LIMIT_MESSAGES.depth]);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    throw new ParamError([INVALID_BODY]);
  }
  const broken = jsonLimitBroken(parsed);
  if (broken) throw new ParamError([JSON_LIMIT_MESSAGES[broken]]);
  return parsed;
}

/**
 * Parameters as Grape sees them: query, then body, then path segments, later sources winning
 * (python-gitlab adds a stray `?id=` that must not override the path's id).
 */
export function collectParams(req: Request): Record<string, unknown> {
  const raw: unknown = req.body;
  const body = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  // Raw path segments on purpose: route()'s params() parses the merged whole through the contract.
  return { ...(req.query as Record<string, unknown>), ...body, ...req.params };
}
