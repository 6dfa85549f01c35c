import { isUtf8 } from 'node:buffer';
import type { NextFunction, Request, Response } from 'express';

/**
 * GitLab's Gitlab::Middleware::HandleMalformedStrings (lib/gitlab/middleware/handle_malformed_strings.rb):
 * "There is no valid reason for a request to contain a malformed string", so a path, a parameter or the
 * Authorization header holding a NUL byte or invalid UTF-8 (or an escape Rack cannot unescape) is answered
 * `400 Bad Request` in plain text before any routing. Here it also keeps such strings away from Express's
 * parameter decoding (which threw a URIError, a 500) and from storage.
 */
export const MALFORMED_STATUS = 400;
const MALFORMED_BODY = 'Bad Request';

export function sendMalformed(res: Response): void {
  res.status(MALFORMED_STATUS);
  res.setHeader('Content-Type', 'text/plain');
  res.setHeader('Content-Length', Buffer.byteLength(MALFORMED_BODY));
  res.end(MALFORMED_BODY);
}

const HEX = /^[0-9a-fA-F]{2}$/;

/**
 * The bytes URL text stands for, or null when a `%` is not followed by two hex digits (Rack's unescape
 * raises there). Node hands the request line over one byte per character, so characters below 256 are
 * bytes; `+` is a space in query strings and form bodies.
 */
export function percentDecode(text: string, plusIsSpace = false): Buffer | null {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x25) {
      const hex = text.slice(i + 1, i + 3);
      if (!HEX.test(hex)) return null;
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else if (code === 0x2b && plusIsSpace) {
      bytes.push(0x20);
    } else if (code < 0x100) {
      bytes.push(code);
    } else {
      bytes.push(...Buffer.from(text[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

/** `string_malformed?`: invalid UTF-8 or a NUL byte. */
export function bytesMalformed(bytes: Buffer): boolean {
  return bytes.includes(0) || !isUtf8(bytes);
}

/** ASCII without NUL and without escapes: text that decodes to itself, valid UTF-8 (most URLs). */
function plainAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0 || code === 0x25 || code > 0x7f) return false;
  }
  return true;
}

export function urlTextMalformed(text: string, plusIsSpace = false): boolean {
  if (plainAscii(text)) return false;
  const bytes = percentDecode(text, plusIsSpace);
  return bytes === null || bytesMalformed(bytes);
}

/**
 * `credentials_malformed?`: the decoded user:password of Basic auth, else the whole header. Header values
 * arrive as latin1, one character per byte.
 */
function authorizationMalformed(header: string | undefined): boolean {
  if (!header) return false;
  const basic = /^basic\s+(\S+)\s*$/i.exec(header);
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64');
    if (decoded.toString('latin1').split(':').length === 2) return bytesMalformed(decoded);
  }
  return bytesMalformed(Buffer.from(header, 'latin1'));
}

function valueHasNullByte(value: unknown, depth: number): boolean {
  if (depth > 2) return false;
  if (typeof value === 'string') return value.includes('\u0000');
  const children = Array.isArray(value)
    ? value
    : value && typeof value === 'object'
      ? Object.values(value as Record<string, unknown>)
      : [];
  return children.some((child) => valueHasNullByte(child, depth + 1));
}

/**
 * `param_has_null_byte?` over every parameter value: strings down to GitLab's depth (it gives up below two
 * levels of nesting, "deeply nested params are highly uncommon").
 */
export function paramsHaveNullByte(params: unknown): boolean {
  if (!params || typeof params !== 'object') return false;
  const values = Array.isArray(params) ? params : Object.values(params as Record<string, unknown>);
  return values.some((value) => valueHasNullByte(value, 0));
}

/**
 * A string anywhere in a parsed JSON body (values and keys) that holds a lone UTF-16 surrogate: JSON's
 * `"\ud800"` escape is the one way to write a string that is not Unicode, which UTF-8 (BSON, the wire)
 * cannot carry; stored, it read back as U+FFFD. It is the body's invalid UTF-8, and refused as such.
 */
// With the `u` flag a surrogate pair is one code point, so only a surrogate on its own matches.
const LONE_SURROGATE = /\p{Surrogate}/u;

export function hasIllFormedString(value: unknown): boolean {
  if (typeof value === 'string') return LONE_SURROGATE.test(value);
  if (Array.isArray(value)) return value.some(hasIllFormedString);
  if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      if (LONE_SURROGATE.test(key) || hasIllFormedString(child)) return true;
    }
  }
  return false;
}

/** The path, the query parameters and the Authorization header (bodies are checked where they are read). */
export function requestMalformed(req: Request): boolean {
  const url = req.originalUrl ?? req.url ?? '';
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  if (urlTextMalformed(path)) return true;
  if (q >= 0) {
    // Rack refuses the whole query string over one bad escape or invalid UTF-8; NUL bytes are looked for
    // in the parsed values, as in the body.
    const query = url.slice(q + 1);
    if (!plainAscii(query)) {
      const bytes = percentDecode(query, true);
      if (bytes === null || !isUtf8(bytes)) return true;
    }
    if (paramsHaveNullByte(req.query)) return true;
  }
  return authorizationMalformed(req.headers.authorization);
}

/** First middleware of every process: malformed requests stop here with GitLab's answer. */
export function rejectMalformedRequests() {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (requestMalformed(req)) {
      sendMalformed(res);
      return;
    }
    next();
  };
}
