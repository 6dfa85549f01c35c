import type { NextFunction, Request, RequestHandler, Response } from 'express';
import busboy from 'busboy';
import { HttpError, ParamError } from '../errors';
import { parseNestedParams, parseQueryString, type ParamObject } from './nested-params';

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

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
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        reject(new HttpError(413, { message: '413 Request Entity Too Large' }));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
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
  return (req: Request, _res: Response, next: NextFunction) => {
    void (async () => {
      const raw = await readRaw(req, limit);
      req.rawBody = raw;
      const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (raw.length === 0 || raw.toString('utf8').trim() === '') {
        req.body = {};
      } else if (type === 'application/json' || type.endsWith('+json')) {
        try {
          req.body = JSON.parse(raw.toString('utf8')) as unknown;
        } catch {
          throw new ParamError([INVALID_BODY]);
        }
      } else if (type === 'application/x-www-form-urlencoded') {
        req.body = parseQueryString(raw.toString('utf8'));
      } else if (type === 'multipart/form-data') {
        req.body = await parseMultipart(req, raw);
      } else {
        req.body = {};
      }
    })().then(() => next(), next);
  };
}

/**
 * Parameters as Grape sees them: query, then body, then path segments, later sources winning
 * (python-gitlab adds a stray `?id=` that must not override the path's id).
 */
export function collectParams(req: Request): Record<string, unknown> {
  const raw: unknown = req.body;
  const body = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  return { ...(req.query as Record<string, unknown>), ...body, ...req.params };
}
